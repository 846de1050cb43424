import { readdirSync } from 'node:fs';
import path from 'node:path';
import { LRUCache } from 'lru-cache';

/** Default cap of the compressed build files kept in memory (bytes): the build's are ~2 MB. */
export const STATIC_CACHE_MAX_BYTES = 16 * 1024 * 1024;

/**
 * Compressed copies of the build's hashed, immutable files, keyed by their one canonical URL
 * (`/_next/static/…` exactly as the build names them). Another spelling of a file (`/./`, `x/../`,
 * percent-encoding) is never a key: it is answered as Next.js answers it, and nothing is kept for
 * it, so no client can grow the cache. Least recently used entries go first past `maxBytes`.
 */
export type StaticCache = {
  get(url: string): Buffer | undefined;
  /** Keeps `body` for `url` when `url` is a build file's canonical URL; otherwise does nothing. */
  set(url: string, body: Buffer): void;
  /** Bytes held now (URLs and bodies). */
  bytes(): number;
  readonly maxBytes: number;
};

/**
 * A cache of compressed build files.
 * @param files the canonical URLs that may be kept ({@link buildFileUrls})
 * @param maxBytes the cap (bytes), {@link STATIC_CACHE_MAX_BYTES} by default
 */
export function createStaticCache(
  files: ReadonlySet<string>,
  maxBytes = STATIC_CACHE_MAX_BYTES,
): StaticCache {
  const cache = new LRUCache<string, Buffer>({
    maxSize: maxBytes,
    sizeCalculation: (body, url) => body.length + Buffer.byteLength(url),
  });
  return {
    get: (url) => cache.get(url),
    set(url, body) {
      if (files.has(url)) cache.set(url, body);
    },
    bytes: () => cache.calculatedSize,
    maxBytes,
  };
}

/**
 * The canonical URLs of the files under `<distDir>/static` (`/_next/static/<path>`), read once at
 * start: the build's own files, which never change while the server runs.
 * @returns an empty set when the folder is missing
 */
export function buildFileUrls(distDir: string): Set<string> {
  const folder = path.join(distDir, 'static');
  try {
    return new Set(
      readdirSync(folder, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)))
        .map((file) => `/_next/static/${file.split(path.sep).join('/')}`),
    );
  } catch {
    return new Set();
  }
}
