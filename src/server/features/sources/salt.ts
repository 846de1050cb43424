import 'server-only';
import { randomBytes } from 'node:crypto';
import { eq, lt } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { visitHashes, visitSalts } from './schema';

/**
 * The random salt of `day` (`YYYY-MM-DD` in the site's zone), shared by every instance through
 * the database: the first instance to ask creates it (32 random bytes), the others read it. When
 * it creates a day's salt it deletes every earlier day's salt and visitor hashes, so none outlives
 * its day even when nothing ran at midnight.
 */
export async function saltOfDay(db: Db, day: string): Promise<string> {
  const created = await db
    .insert(visitSalts)
    .values({ day, salt: randomBytes(32).toString('base64url') })
    .onConflictDoNothing()
    .returning({ salt: visitSalts.salt });
  if (created[0]) {
    await forgetPastDays(db, day);
    return created[0].salt;
  }
  const [row] = await db
    .select({ salt: visitSalts.salt })
    .from(visitSalts)
    .where(eq(visitSalts.day, day));
  if (!row) throw new Error(`sources: the salt of ${day} vanished`);
  return row.salt;
}

/**
 * Deletes the salts and visitor hashes of the days before `today`: they have done their work (a
 * day's uniques are counted) and must not outlive it.
 * @returns how many salts and hashes were deleted
 */
export async function forgetPastDays(
  db: Db,
  today: string,
): Promise<{ salts: number; hashes: number }> {
  const hashes = await db
    .delete(visitHashes)
    .where(lt(visitHashes.day, today))
    .returning({ day: visitHashes.day });
  const salts = await db
    .delete(visitSalts)
    .where(lt(visitSalts.day, today))
    .returning({ day: visitSalts.day });
  return { salts: salts.length, hashes: hashes.length };
}
