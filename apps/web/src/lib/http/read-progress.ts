/**
 * A response's body as a blob, telling how much has arrived as it comes: the whole is the
 * server's Content-Length when it gave one. Kept apart from download.ts, which the first load
 * carries, for the screens that show a download's progress.
 */
export async function readWithProgress(
  response: Response,
  onProgress: (loaded: number, total: number | undefined) => void,
): Promise<Blob> {
  const length = Number(response.headers.get('content-length'));
  const total = Number.isFinite(length) && length > 0 ? length : undefined;
  const reader = response.body?.getReader();
  if (!reader) return response.blob();
  const parts: Uint8Array<ArrayBuffer>[] = [];
  let loaded = 0;
  onProgress(0, total);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    loaded += value.length;
    onProgress(loaded, total);
  }
  return new Blob(parts, { type: response.headers.get('content-type') ?? 'application/octet-stream' });
}
