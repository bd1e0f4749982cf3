import { XSRF_COOKIE, XSRF_HEADER } from '@fleetgate/shared/constants';
import type { ErrorEntry } from '@fleetgate/shared/schemas/api';
import { readCookie } from '../cookies';
import { ApiError, NetworkError, TimeoutError } from './errors';
import { refreshSession } from './refresh';

export const API_BASE = '/api';

export type Envelope<T> = { success: true; data: T; meta?: Record<string, unknown>; message?: string };

export type Query = Record<
  string,
  string | number | boolean | null | undefined | readonly (string | number)[]
>;

export type RequestOptions = {
  query?: Query;
  body?: unknown;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Plain reject on 401 instead of refresh-and-retry. */
  noRefresh?: boolean;
};

/** List parameters comma-joined; null and empty values dropped (spec §7 General). */
export function buildQuery(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === null || value === undefined || value === '') continue;
    if (Array.isArray(value)) {
      if (value.length) params.set(key, value.join(','));
    } else params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

function headersFor(method: string, hasBody: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    'X-Requested-With': 'XMLHttpRequest',
    Accept: 'application/json',
  };
  if (hasBody) headers['Content-Type'] = 'application/json';
  if (method !== 'GET' && method !== 'HEAD') {
    const xsrf = readCookie(XSRF_COOKIE);
    if (xsrf) headers[XSRF_HEADER] = xsrf;
  }
  return headers;
}

async function once<T>(method: string, path: string, options: RequestOptions): Promise<Envelope<T>> {
  const url = `${path.startsWith('/') && !path.startsWith(API_BASE) ? API_BASE : ''}${path}${buildQuery(options.query)}`;
  const signals = [
    options.signal,
    options.timeoutMs ? AbortSignal.timeout(options.timeoutMs) : undefined,
  ].filter((s): s is AbortSignal => s !== undefined);
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      credentials: 'same-origin',
      headers: headersFor(method, options.body !== undefined),
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: signals.length ? AbortSignal.any(signals) : undefined,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'TimeoutError') throw new TimeoutError();
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new NetworkError();
  }
  const body = (await response.json().catch(() => undefined)) as
    | { success?: boolean; errors?: ErrorEntry[] }
    | undefined;
  if (!response.ok || !body || body.success === false) {
    throw new ApiError(response.status, response.statusText, body?.errors ?? [], body);
  }
  return body as Envelope<T>;
}

/**
 * One API call. On 401 the session is refreshed once and the call resent (spec §8 Global
 * client), unless the caller asked for a plain reject.
 */
export async function apiRequest<T>(
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<Envelope<T>> {
  try {
    return await once<T>(method, path, options);
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 401 || options.noRefresh) throw error;
    if (!(await refreshSession())) throw error;
    return once<T>(method, path, options);
  }
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => apiRequest<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    apiRequest<T>('POST', path, { ...options, body: body ?? {} }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    apiRequest<T>('PUT', path, { ...options, body: body ?? {} }),
  delete: <T>(path: string, options?: RequestOptions) => apiRequest<T>('DELETE', path, options),
};
