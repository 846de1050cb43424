/**
 * The sources feature's door: cookieless visit counts (the beacon), the funnel from a visit to a
 * held demo, the Sources report and its CSV, their tables and their purge. Other code imports only
 * this.
 */
export {
  BEACON_MAX_BYTES,
  countBeacon,
  existingCollector,
  FLUSH_INTERVAL_MS,
  refusal,
} from './beacon';
export type { BeaconContext, BeaconVerdict } from './beacon';
export { VisitCollector } from './collect';
export { BEACON_ROUTE, beaconResponse, serveBeaconsBeforeNext } from './endpoint';
export { sourcesCsv } from './csv';
export { sourcesEnvSlice, getSourcesEnv } from './env';
export type { SourcesEnv } from './env';
export { countHeldDemos, funnelCounter } from './funnel';
export { purgeSources } from './purge';
export { DEFAULT_RANGE_DAYS, sourcesRange } from './range';
export { CONTACT_PATH, sourceLabel, sourcesReport } from './report';
export type { FunnelRow, SourcesReport, Tally } from './report';
export { forgetPastDays, saltOfDay } from './salt';
export { funnelCounts, pendingDemos, visitCounts, visitHashes, visitSalts } from './schema';
