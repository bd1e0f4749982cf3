import { APP_VERSION, PRODUCT_XSRF_COOKIE, XSRF_COOKIE, XSRF_HEADER } from '@fleetgate/shared/constants';
import type { ErrorEntry } from '@fleetgate/shared/schemas/api';
import { readCookie } from '../cookies';
import { ResponseCache } from './cache';
import { ApiError, CancelledError, NetworkError, TimeoutError } from './errors';
import { clientHandlers } from './handlers';
import { refreshSession } from './refresh';

export const API_BASE = '/api';
export const SPA_VERSION_KEY = 'spa_version';

export type Envelope<T> = { success: true; data: T; meta?: Record<string, unknown>; message?: string };

export type Query = Record<
  string,
  string | number | boolean | null | undefined | readonly (string | number)[]
>;

export type RequestOptions = {
  query?: Query;
  body?: unknown;
  /** A multipart upload (product §7 Forms: uploads); see toFormData. */
  formData?: FormData;
  signal?: AbortSignal;
  /** No timeout unless asked (product §7 General). */
  timeoutMs?: number;
  /** Plain reject on 401 instead of refresh-and-retry. */
  noRefresh?: boolean;
  /** GETs to the same URL replace each other unless false (product §7 General). */
  dedupe?: boolean;
  /** Survives route changes (header widgets, storage: product §7 Storage skips the pending list). */
  keepOnRouteChange?: boolean;
  /** Serve from the 5-minute response cache (product §9), GET only. */
  cache?: boolean;
};

/** List parameters comma-joined; null and empty values dropped (product §7 General). */
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

export function urlOf(path: string, query?: Query): string {
  const base = path.startsWith(API_BASE) || !path.startsWith('/') ? '' : API_BASE;
  return `${base}${path}${buildQuery(query)}`;
}

/** Uploads: arrays indexed, dates as ISO strings, null as empty (product §7 Forms and actions). */
export function toFormData(values: Record<string, unknown>, form = new FormData(), prefix = ''): FormData {
  for (const [key, value] of Object.entries(values)) {
    const name = prefix ? `${prefix}[${key}]` : key;
    if (value === undefined) continue;
    if (value === null) form.append(name, '');
    else if (value instanceof Blob) form.append(name, value);
    else if (value instanceof Date) form.append(name, value.toISOString());
    else if (Array.isArray(value)) {
      value.forEach((item, index) => {
        if (item !== null && typeof item === 'object' && !(item instanceof Blob) && !(item instanceof Date)) {
          toFormData(item as Record<string, unknown>, form, `${name}[${index}]`);
        } else toFormData({ [index]: item }, form, name);
      });
    } else if (typeof value === 'object') toFormData(value as Record<string, unknown>, form, name);
    else form.append(name, String(value));
  }
  return form;
}

type Pending = {
  url: string;
  method: string;
  controller: AbortController;
  keep: boolean;
  /** The page (address path) the request was made from. */
  page: string;
  promise: Promise<unknown>;
};
const pending = new Set<Pending>();
const cache = new ResponseCache();

/** The address path the console is on; requests remember it (cancelPending). */
const currentPage = () => (typeof window === 'undefined' ? '' : window.location.pathname);

/**
 * Cancels every pending request not marked to survive (product §7: 'Route changed'). Given
 * the page the console has moved to, only requests made from another page are cancelled: a
 * handler that navigates and then asks for data (a save that goes to the saved record and
 * refreshes the list) keeps what it asked for after the address changed, although the new
 * route is drawn, and this called, a moment later.
 */
export function cancelPending(reason = 'Route changed', newPage?: string): void {
  for (const entry of pending) {
    if (!entry.keep && entry.page !== newPage) entry.controller.abort(new CancelledError(reason));
  }
}

export function clearResponseCache(): void {
  cache.clear();
}

/** product §8 Global client: no refresh for /user on the ssh or telnet screens, nor for /account URLs. */
function plainRejectOn401(path: string): boolean {
  if (path.includes('/account')) return true;
  const page = typeof window === 'undefined' ? '' : window.location.pathname;
  return path === '/user' && (page.includes('/rms-connect/ssh') || page.includes('/rms-connect/telnet'));
}

/** The headers every API call carries: the XHR marker, the SPA version, and the XSRF token on writes. */
export function headersFor(method: string, json: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    'X-Requested-With': 'XMLHttpRequest',
    Accept: 'application/json',
    'X-SPA-VERSION': localStorage.getItem(SPA_VERSION_KEY) ?? APP_VERSION,
  };
  if (json) headers['Content-Type'] = 'application/json';
  if (method !== 'GET' && method !== 'HEAD') {
    const xsrf = readCookie(PRODUCT_XSRF_COOKIE) ?? readCookie(XSRF_COOKIE);
    if (xsrf) headers[XSRF_HEADER] = xsrf;
  }
  return headers;
}

async function send<T>(
  method: string,
  url: string,
  options: RequestOptions,
  signal: AbortSignal,
): Promise<Envelope<T>> {
  const json = options.body !== undefined && !options.formData;
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      credentials: 'same-origin',
      headers: headersFor(method, json),
      body: options.formData ?? (json ? JSON.stringify(options.body) : undefined),
      signal,
    });
  } catch (error) {
    if (signal.aborted)
      throw signal.reason instanceof Error ? signal.reason : new CancelledError('Cancelled');
    throw error instanceof DOMException && error.name === 'TimeoutError'
      ? new TimeoutError()
      : new NetworkError();
  }
  const body = (await response.json().catch(() => undefined)) as
    | { success?: boolean; errors?: ErrorEntry[]; meta?: Record<string, unknown> }
    | undefined;
  if (!response.ok || !body || body.success === false) {
    throw new ApiError(response.status, response.statusText, body?.errors ?? [], body);
  }
  return body as Envelope<T>;
}

/** One network exchange, registered so that route changes and newer duplicates can cancel it. */
async function exchange<T>(method: string, path: string, options: RequestOptions): Promise<Envelope<T>> {
  const url = urlOf(path, options.query);
  const dedupe = method === 'GET' && options.dedupe !== false;
  if (dedupe) {
    for (const entry of pending) {
      if (entry.url === url && entry.method === 'GET')
        entry.controller.abort(new CancelledError('Superseded'));
    }
  }
  const controller = new AbortController();
  const signals = [
    controller.signal,
    options.signal,
    options.timeoutMs ? AbortSignal.timeout(options.timeoutMs) : undefined,
  ];
  const signal = AbortSignal.any(signals.filter((s): s is AbortSignal => s !== undefined));
  const entry: Pending = {
    url,
    method,
    controller,
    keep: options.keepOnRouteChange ?? false,
    page: currentPage(),
    promise: Promise.resolve(),
  };
  const promise = send<T>(method, url, options, signal).finally(() => pending.delete(entry));
  entry.promise = promise;
  pending.add(entry);
  try {
    return await promise;
  } catch (error) {
    // A newer GET to the same URL replaced this one: answer with its result (product §7, §8).
    if (error instanceof CancelledError && error.reason === 'Superseded') {
      const newer = [...pending].find((p) => p.url === url && p.method === 'GET' && p !== entry);
      if (newer) return (await newer.promise) as Envelope<T>;
      return exchange<T>(method, path, options);
    }
    throw error;
  }
}

/**
 * One API call with the global behaviour of product §7 and §8: 401 refreshes the session
 * and resends once; 423 asks for the password and resends; MFA_REQUIRED opens the
 * verification dialog and resends with the code; codes with a global handler run it.
 */
export async function apiRequest<T>(
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<Envelope<T>> {
  const url = urlOf(path, options.query);
  if (options.cache && method === 'GET') {
    const hit = cache.get<Envelope<T>>(url);
    if (hit) return hit;
  }
  try {
    const result = await exchange<T>(method, path, options);
    if (options.cache && method === 'GET') cache.set(url, result);
    return result;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.status === 401 && !options.noRefresh && !plainRejectOn401(path)) {
      if (await refreshSession()) return apiRequest<T>(method, path, { ...options, noRefresh: true });
      throw error;
    }
    if (error.status === 423 && clientHandlers.confirmPassword) {
      if (await clientHandlers.confirmPassword(error.message)) return apiRequest<T>(method, path, options);
      throw error;
    }
    if (error.code === 'MFA_REQUIRED' && clientHandlers.verify) {
      const meta = ((error.body as { meta?: Record<string, unknown> } | undefined)?.meta ?? {}) as Record<
        string,
        unknown
      >;
      const method2 = String(meta.mfa_method ?? meta.mfa_type ?? '');
      return (await clientHandlers.verify({
        method: method2,
        message: error.message,
        meta,
        // Resent with the session data; the fields are not kept after (product §4).
        submit: (code) =>
          apiRequest<T>(method, path, {
            ...options,
            body: {
              ...((options.body as Record<string, unknown> | undefined) ?? {}),
              session_code: code,
              ...(meta.session_id === undefined ? {} : { session_id: meta.session_id }),
              ...(meta.session_uuid === undefined ? {} : { session_uuid: meta.session_uuid }),
            },
          }),
      })) as Envelope<T>;
    }
    const global = error.code ? clientHandlers.global.get(error.code) : undefined;
    global?.(error);
    throw error;
  }
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => apiRequest<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    apiRequest<T>('POST', path, { ...options, body: body ?? {} }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    apiRequest<T>('PUT', path, { ...options, body: body ?? {} }),
  patch: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    apiRequest<T>('PATCH', path, { ...options, body: body ?? {} }),
  delete: <T>(path: string, options?: RequestOptions) => apiRequest<T>('DELETE', path, options),
};
