/** Types of document-bytes.mjs. */
export const FIRST_ROUND_TRIP_BYTES: number;
export const PUBLIC_ROUTES: string[];
export function documentBytes(
  url: string,
  options?: { acceptEncoding?: string },
): Promise<{ bytes: number; headerBytes: number; status: number; encoding: string }>;
