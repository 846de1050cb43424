import 'server-only';
import { OTHER, sourceDimensions, type SourceKey } from './fold';

/**
 * Distinct values of each source dimension one client (a day-salted hash of its address) may
 * bring in a day; its further values are counted as `other`. A person's visits carry one or two
 * campaigns; a script sending beacons with made-up tags fills only its own few.
 */
export const DISTINCT_PER_CLIENT = 5;

/** Clients remembered per day before the memory is cleared (a bound, not a limit). */
const MAX_CLIENTS = 100_000;

/**
 * The distinct source values each client brought today, in this process's memory: the first
 * DISTINCT_PER_CLIENT per dimension keep their names, the rest become `other`.
 */
export class ClientValues {
  private day = '';
  private seen = new Map<string, Record<keyof SourceKey, Set<string>>>();

  /**
   * `key` as counted for `client` on `day`: each value past the client's DISTINCT_PER_CLIENT
   * distinct values of its dimension that day is {@link OTHER}; `''` (none) is never changed.
   */
  limit<K extends SourceKey>(day: string, client: string, key: K): K {
    if (day !== this.day || this.seen.size >= MAX_CLIENTS) {
      this.day = day;
      this.seen.clear();
    }
    let values = this.seen.get(client);
    if (!values) {
      values = {
        referrerHost: new Set(),
        utmSource: new Set(),
        utmMedium: new Set(),
        utmCampaign: new Set(),
      };
      this.seen.set(client, values);
    }
    const limited = { ...key };
    for (const dimension of sourceDimensions) {
      const value = key[dimension];
      if (value === '' || values[dimension].has(value)) continue;
      if (values[dimension].size < DISTINCT_PER_CLIENT) values[dimension].add(value);
      else limited[dimension] = OTHER;
    }
    return limited;
  }
}
