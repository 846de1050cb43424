import '@test/quiet-logs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, backendTitle, openTestDatabase, type TestDatabase } from '@test/databases';
import { verifyKey } from '../platform/security/key-fingerprint';
import { refuseAnotherKey } from './key-check';

const KEY = 'the-key-this-database-was-used-with-0123456789';

for (const backend of backends) {
  describe.skipIf(backend.skipReason)(backendTitle("the start's key check", backend), () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await openTestDatabase(backend.kind);
      await verifyKey(database.db, KEY);
    });
    afterAll(() => database?.dispose());

    it('stops the start under another key, naming FORM_SECRET and the key file', async () => {
      let stops = 0;
      const stop = async () => {
        stops += 1;
      };
      // Another FORM_SECRET, and (on PGlite) none: the generated key file's key is another too.
      const configured =
        backend.kind === 'postgres' ? 'another-key-0123456789abcdef0123456789' : undefined;
      const refusal = await refuseAnotherKey(database.db, configured, stop);
      expect(stops).toBe(1);
      expect(refusal).toContain('FORM_SECRET');
      expect(refusal).toContain('DATA_DIR/keys/site-secret');
      if (backend.kind === 'pglite') expect(refusal).toMatch(/here \/.+\/keys\/site-secret/);

      expect(await refuseAnotherKey(database.db, KEY, stop)).toBeUndefined();
      expect(stops).toBe(1);
    });
  });
}
