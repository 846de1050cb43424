import '@test/quiet-logs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, backendTitle, openTestDatabase, type TestDatabase } from '@test/databases';
import { consumeRateLimit } from '../rate-limit';
import { hashClientAddress } from './client-address';
import { formPostFacts, formRateLimit } from './form-post';
import { PEER_ADDRESS_HEADER } from '../../../lib/http/peer-address';

const secret = 's'.repeat(32);
const env = { TRUST_PROXY: 1, RATE_LIMIT_MAX: 5, RATE_LIMIT_WINDOW_MINUTES: 10 } as const;
const now = new Date('2026-11-26T09:00:00Z');

/** A post that reached the site through one proxy (the reference nginx) from `address`. */
const postFrom = (address: string) =>
  formPostFacts(
    new Headers({ [PEER_ADDRESS_HEADER]: '127.0.0.1', 'x-forwarded-for': address }),
    env,
  );

for (const backend of backends) {
  describe.skipIf(backend.skipReason)(
    backendTitle('the per-client form limit and IPv6', backend),
    () => {
      let database: TestDatabase;
      beforeAll(async () => {
        database = await openTestDatabase(backend.kind);
      });
      afterAll(() => database?.dispose());

      /** Counts one post as every visitor form does: the client's keyed hash, in a transaction. */
      const count = (address: string) =>
        database.db.transaction((tx) =>
          consumeRateLimit(
            tx,
            `form:${hashClientAddress(postFrom(address).clientAddress, secret)}`,
            formRateLimit(env),
            now,
          ),
        );

      it('holds eight addresses of one /64 to the limit of one client', async () => {
        const verdicts = [];
        for (let host = 1; host <= 8; host++)
          verdicts.push(await count(`2001:db8:aa:1::${host.toString(16)}:${host}`));
        console.log(`one /64, 8 addresses, limit ${env.RATE_LIMIT_MAX}: ${verdicts.join(', ')}`);
        expect(verdicts).toEqual([true, true, true, true, true, false, false, false]);
      });

      it('counts eight /64s as eight clients', async () => {
        const verdicts = [];
        for (let net = 1; net <= 8; net++) verdicts.push(await count(`2001:db8:bb:${net}::1`));
        console.log(`8 /64s, one address each: ${verdicts.join(', ')}`);
        expect(verdicts).toEqual(Array(8).fill(true));
      });

      it('counts an IPv4-mapped address as its IPv4 address', async () => {
        const verdicts = [];
        for (let post = 0; post < 3; post++) verdicts.push(await count('198.51.100.4'));
        for (let post = 0; post < 3; post++) verdicts.push(await count('::ffff:198.51.100.4'));
        expect(verdicts).toEqual([true, true, true, true, true, false]);
      });
    },
  );
}
