import { APP_VERSION } from '@fleetgate/shared/constants';
import { type Query, SPA_VERSION_KEY, urlOf } from './client';
import { ApiError, NetworkError } from './errors';
import { refreshSession } from './refresh';

/** The file name of a `content-disposition` header (RFC 6266 `filename*` preferred), or null. */
export function fileNameOf(disposition: string | null): string | null {
  if (!disposition) return null;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(disposition);
  return plain?.[1]?.trim() || null;
}

async function fetchBlob(url: string): Promise<Response> {
  try {
    return await fetch(url, {
      credentials: 'same-origin',
      headers: {
        'X-Requested-With': 'XMLHttpRequest',
        'X-SPA-VERSION': localStorage.getItem(SPA_VERSION_KEY) ?? APP_VERSION,
      },
    });
  } catch {
    throw new NetworkError();
  }
}

/** A file's response (not JSON): refreshed once on 401, an ApiError with the server's words otherwise. */
async function fetchFile(path: string, query?: Query): Promise<Response> {
  const url = urlOf(path, query);
  let response = await fetchBlob(url);
  if (response.status === 401 && (await refreshSession())) response = await fetchBlob(url);
  if (!response.ok) {
    const body = (await response.json().catch(() => undefined)) as
      | { errors?: { code: string; message: string }[] }
      | undefined;
    throw new ApiError(response.status, response.statusText, body?.errors ?? [], body);
  }
  return response;
}

/** A text file's content, read in the page rather than saved (a terminal recording to replay). */
export async function fetchFileText(path: string, query?: Query): Promise<string> {
  return (await fetchFile(path, query)).text();
}

/**
 * File download of product §7: a GET with a blob response, the file name from the
 * content-disposition header; on 401 the session is refreshed and the GET retried once.
 * The browser saves the file; the name falls back to `fallbackName`.
 */
export async function downloadFile(
  path: string,
  options: {
    query?: Query;
    fallbackName: string;
    /** Reads the body (showing its progress, say: read-progress.ts); the whole at once by default. */
    read?: (response: Response) => Promise<Blob>;
  },
) {
  const response = await fetchFile(path, options.query);
  const blob = options.read ? await options.read(response) : await response.blob();
  const name = fileNameOf(response.headers.get('content-disposition')) ?? options.fallbackName;
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = name;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 1000);
  return name;
}
