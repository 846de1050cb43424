import 'server-only';

/**
 * The request's body, read only up to `maxBytes`: a larger body (by its Content-Length, or as it
 * streams in, chunked or not) is abandoned without being buffered.
 * @returns the bytes, or `null` when the body is larger than `maxBytes`
 */
export async function readBytesWithin(
  request: Request,
  maxBytes: number,
): Promise<Uint8Array<ArrayBuffer> | null> {
  if (Number(request.headers.get('content-length') ?? 0) > maxBytes) return null;
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/**
 * The request's body as UTF-8 text, read only up to `maxBytes` (see `readBytesWithin`).
 * @returns the text, or `null` when the body is larger than `maxBytes`
 */
export async function readTextWithin(request: Request, maxBytes: number): Promise<string | null> {
  const bytes = await readBytesWithin(request, maxBytes);
  return bytes && Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}
