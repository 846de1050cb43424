import 'server-only';
import { randomBytes } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { OWNER_ONLY_FILE } from '../owner-only';

/** What a backup says about itself, on its first line: never the key, nor any person's data. */
export type BackupHeader = {
  /** The file format's version. */
  format: 1;
  /**
   * When the dump began, by the database's clock (ISO 8601): every transaction committed before is
   * in it.
   */
  startedAt: string;
  /**
   * When the dump ended, by the database's clock: a job due by then may have been sent after the
   * dump's snapshot, so a restore holds it.
   */
  finishedAt: string;
  /** The engine it was taken from. */
  engine: 'pglite' | 'postgres';
  /** The schema's migration level: how many migrations were applied, and the newest one's time (ms). */
  migrations: { count: number; newest: number };
  /** The fingerprint of the key its hashes were made with (platform/security/key-fingerprint.ts). */
  keyFingerprint: string;
};

const HEADER_PREFIX = '-- nirmaya-backup ';
/** The first bytes of an age-encrypted file. */
const AGE_MAGIC = 'age-encryption.org/v1\n';

/**
 * A backup file's bytes: the header line and the dump's SQL, gzip-compressed, then encrypted to
 * the age `recipient` (`age1…`) when one is given. The header is an SQL comment, so the
 * decompressed file is still a script psql could read.
 * @throws when the recipient is not a valid age recipient
 */
export async function encodeBackup(
  header: BackupHeader,
  script: string,
  recipient?: string,
): Promise<Uint8Array> {
  const compressed = await promisify(gzip)(`${HEADER_PREFIX}${JSON.stringify(header)}\n${script}`);
  if (!recipient) return compressed;
  const { Encrypter } = await import('age-encryption');
  const encrypter = new Encrypter();
  encrypter.addRecipient(recipient);
  return encrypter.encrypt(compressed);
}

/**
 * Reads a backup's bytes (encodeBackup): decrypted with the age `identities` (`AGE-SECRET-KEY-1…`)
 * when it is encrypted, decompressed, its header parsed.
 * @throws when it is encrypted and no identity opens it, or it is not a backup of this site
 */
export async function decodeBackup(
  bytes: Uint8Array,
  identities: readonly string[] = [],
): Promise<{ header: BackupHeader; script: string }> {
  let compressed = bytes;
  if (Buffer.from(bytes.subarray(0, AGE_MAGIC.length)).toString('latin1') === AGE_MAGIC) {
    if (identities.length === 0)
      throw new Error('The backup is encrypted: give the age identity that opens it (--identity).');
    const { Decrypter } = await import('age-encryption');
    const decrypter = new Decrypter();
    for (const identity of identities) decrypter.addIdentity(identity);
    compressed = await decrypter.decrypt(bytes);
  }
  const text = (await promisify(gunzip)(compressed).catch(() => undefined))?.toString('utf8');
  const newline = text?.indexOf('\n') ?? -1;
  if (!text?.startsWith(HEADER_PREFIX) || newline < 0)
    throw new Error('Not a backup of this site (made by `npm run leads -- backup`).');
  return {
    header: JSON.parse(text.slice(HEADER_PREFIX.length, newline)) as BackupHeader,
    script: text.slice(newline + 1),
  };
}

/**
 * Writes `bytes` to `file` so that `file` is either absent, or an older version, or complete:
 * written and synced under a temporary name beside it (owner-only, 0600), then renamed into place,
 * and the folder synced. A writer killed meanwhile leaves at most the temporary file
 * (`.<name>.partial-…`), never a half file under the final name.
 * @param halfway awaited once half the bytes are written (a test pauses there to kill the writer)
 * @throws when the folder does not exist or is not writable
 */
export async function writeAtomically(
  file: string,
  bytes: Uint8Array,
  halfway?: () => Promise<void>,
): Promise<void> {
  const directory = path.dirname(path.resolve(file));
  const temporary = path.join(
    directory,
    `.${path.basename(file)}.partial-${process.pid}-${randomBytes(4).toString('hex')}`,
  );
  const handle = await open(temporary, 'wx', OWNER_ONLY_FILE);
  try {
    const half = Math.floor(bytes.length / 2);
    await handle.write(bytes, 0, half);
    await halfway?.();
    await handle.write(bytes, half, bytes.length - half);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
  await handle.close();
  await rename(temporary, file);
  const folder = await open(directory, 'r');
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
}
