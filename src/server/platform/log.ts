import 'server-only';
import pino from 'pino';

/**
 * Structured JSON logs on stdout. Events carry ids, references and reasons, never personal data
 * (no names, e-mail addresses, messages or client addresses). Level from `LOG_LEVEL` (default info).
 */
export const log = pino({
  level: process.env.LOG_LEVEL || 'info',
  base: { service: 'nirmaya-site' },
  timestamp: pino.stdTimeFunctions.isoTime,
});

/**
 * Loggable facts about an error: its class, and its `code` and SMTP `responseCode` when present.
 * Never the message: driver and SMTP messages can quote submitted values or addresses.
 */
export function errorFacts(error: unknown): { type: string; code?: string; responseCode?: number } {
  if (!(error instanceof Error)) return { type: typeof error };
  const { code, responseCode } = error as { code?: unknown; responseCode?: unknown };
  return {
    type: error.name,
    ...(typeof code === 'string' ? { code } : {}),
    ...(typeof responseCode === 'number' ? { responseCode } : {}),
  };
}
