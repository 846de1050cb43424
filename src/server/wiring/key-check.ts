import 'server-only';
import type { Db } from '../platform/db';
import { errorFacts, log } from '../platform/log';
import { verifiedSiteSecret } from '../platform/security/key-fingerprint';

/**
 * The start's key check: when the configured key (`FORM_SECRET`, else the embedded database's key
 * file) is not the one the database's hashes were made with (verifiedSiteSecret), logs
 * `site_secret.mismatch` (fatal, with the message naming FORM_SECRET and DATA_DIR/keys/site-secret)
 * and calls `stop`: serving under another key would make every erased person mailable again. Any
 * other failure to read the key is logged as `site_secret.unavailable`; request time tries again.
 * @param stop what refusing does (the server closes its database and exits 1)
 * @returns the refusal's message, or undefined when the key is the database's (or unreadable now)
 */
export async function refuseAnotherKey(
  db: Db,
  configured: string | undefined,
  stop: () => Promise<void>,
): Promise<string | undefined> {
  try {
    await verifiedSiteSecret(db, configured);
    return undefined;
  } catch (error) {
    if ((error as Error).name !== 'SiteKeyMismatchError') {
      log.error({ event: 'site_secret.unavailable', error: errorFacts(error) });
      return undefined;
    }
    log.fatal({ event: 'site_secret.mismatch' }, (error as Error).message);
    await stop();
    return (error as Error).message;
  }
}
