import 'server-only';
import { chmod, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';

/** Mode of the site's folders at rest: the owner only may list, enter or change them. */
export const OWNER_ONLY_FOLDER = 0o700;
/** Mode of the site's files at rest (database files, keys, backups): the owner only reads or writes. */
export const OWNER_ONLY_FILE = 0o600;

/**
 * Creates `directory` (with its missing parents) and makes it owner-only (0700), also when it
 * already existed with a wider mode (an install from before), so no other local account can enter
 * it. Parents it creates are 0700 too; existing parents are left as they are.
 * @throws when the folder cannot be created or its mode changed (not its owner)
 */
export async function ownerOnlyFolder(directory: string): Promise<void> {
  await mkdir(directory, { recursive: true, mode: OWNER_ONLY_FOLDER });
  await chmod(directory, OWNER_ONLY_FOLDER);
}

/**
 * Makes `directory` and everything under it owner-only: folders 0700, files 0600 (PGlite creates
 * its files 0666 and its folders 0755, the WAL included). Symbolic links are not followed.
 * @throws when a mode cannot be changed
 */
export async function tightenTree(directory: string): Promise<void> {
  await chmod(directory, OWNER_ONLY_FOLDER);
  for (const entry of await readdir(directory, { recursive: true, withFileTypes: true })) {
    if (entry.isSymbolicLink()) continue;
    const mode = entry.isDirectory() ? OWNER_ONLY_FOLDER : OWNER_ONLY_FILE;
    // A file PGlite removed meanwhile (a recycled WAL segment) needs no mode.
    await chmod(path.join(entry.parentPath, entry.name), mode).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    });
  }
}
