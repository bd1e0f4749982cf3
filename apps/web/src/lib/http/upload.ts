import type { ErrorEntry } from '@fleetgate/shared/schemas/api';
import { type Envelope, headersFor, type Query, urlOf } from './client';
import { ApiError, CancelledError, NetworkError } from './errors';

/**
 * Sends a file as the request body (application/octet-stream) with upload progress, which
 * fetch cannot report: an XMLHttpRequest with the API's headers. Answers the API's envelope,
 * or an ApiError with the server's words.
 */
export function uploadFile<T>(
  method: 'PUT' | 'POST',
  path: string,
  file: Blob,
  options: {
    query?: Query;
    onProgress?: (loaded: number, total: number) => void;
    signal?: AbortSignal;
  } = {},
): Promise<Envelope<T>> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, urlOf(path, options.query));
    xhr.withCredentials = true;
    for (const [name, value] of Object.entries(headersFor(method, false))) xhr.setRequestHeader(name, value);
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    xhr.upload.onprogress = (event) => options.onProgress?.(event.loaded, event.total || file.size);
    xhr.onerror = () => reject(new NetworkError());
    xhr.onabort = () => reject(new CancelledError('Cancelled'));
    xhr.onload = () => {
      let body: { success?: boolean; errors?: ErrorEntry[] } | undefined;
      try {
        body = JSON.parse(xhr.responseText) as typeof body;
      } catch {
        body = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300 && body && body.success !== false)
        resolve(body as Envelope<T>);
      else reject(new ApiError(xhr.status, xhr.statusText, body?.errors ?? [], body));
    };
    options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}
