/**
 * The console feature's door: operators, sign-in and sessions, the console's actions, views and
 * commands, its env slice and jobs. Other code imports only this.
 */
export { consoleAction, text, texts, withNotice } from './action';
export type { FormFields } from './action';
export { SIGN_IN_PATH } from './auth';
export { cancelDemoAs, exportEnquiries, releaseEnquiries, rescheduleDemoAs } from './commands';
export { consoleEnvSlice } from './env';
export type { ConsoleEnv } from './env';
export { countLeads, listLeads } from './inbox';
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
export { operatorAccounts, operatorSessions, operators, signInTokens } from './schema';
export type { OperatorRole } from './schema';
export { consoleAuth, currentOperator, requirePageOperator } from './session';
export { requestSignIn } from './sign-in';
export { scheduleSpamDigest } from './spam-digest';
export { listDemos, unreviewedSpamCount, viewEnquiry } from './views';
