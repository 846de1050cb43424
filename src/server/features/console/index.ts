/**
 * The console feature's door: operators, sign-in and sessions, the console's actions, views and
 * commands, its env slice and jobs. Other code imports only this; routes and server actions also
 * import `./routes` (what reads the request: the session, the action wrapper, redirects).
 */
export { SIGN_IN_CONFIRM_PATH, SIGN_IN_PATH, SIGN_IN_VERIFY_PATH } from './auth';
export { cancelDemoAs, exportEnquiries, releaseEnquiries, rescheduleDemoAs } from './commands';
export { consoleEnvSlice } from './env';
export type { ConsoleEnv } from './env';
export { countLeads, listLeads, readInbox } from './inbox';
export { consoleJobs } from './jobs';
export {
  addOperator,
  changeOperatorRole,
  ensureAdmins,
  findOperator,
  listOperators,
  operatorRoles,
  removeOperator,
} from './operators';
export { operatorAccounts, operatorSessions, operators, pendingActs, signInTokens } from './schema';
export type { OperatorRole } from './schema';
export { confirmSignIn, requestSignIn } from './sign-in';
export { describePendingAct, findPendingAct, isPendingActId, PENDING_FIELD } from './pending-act';
export type { PendingAct } from './pending-act';
export { scheduleSpamDigest } from './spam-digest';
export { listDemos, unreviewedSpamCount, viewEnquiry } from './views';
