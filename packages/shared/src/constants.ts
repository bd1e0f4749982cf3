/** Business constants of product §9 and product facts of product §1. */

export const APP_VERSION = '5.14.0';
/** Build timestamp of product §9 (seconds). */
export const BUILD_TIMESTAMP = 1759923156;

export const TIMEOUTS = {
  /** User request and token refresh, product §9. */
  userRequestMs: 30_000,
  refreshMs: 30_000,
} as const;

/** Consecutive user-request failures before the maintenance page (product §4, §9). */
export const FAILURE_COUNTER_LIMIT = 3;

export const PAGE_SIZES = { selector: 100, storage: 100, search: 10 } as const;
export const SEARCH_DEBOUNCE_MS = 500;

export const RESPONSE_CACHE = { ttlMs: 5 * 60_000, maxEntries: 100 } as const;
export const ACCOUNT_WIDGET_CACHE = { ttlMs: 10_000, maxEntries: 10 } as const;

export const SOCKET = {
  path: '/status/socket.io',
  reconnectionAttempts: 5,
  reconnectionDelayMs: 1000,
  reconnectionDelayMaxMs: 5000,
  timeoutMs: 20_000,
} as const;

export const TOAST = { durationMs: 4000, maxVisible: 7 } as const;

export const UI_TIMINGS = {
  scrollTopThresholdPx: 300,
  helpPanelWaitMs: 700,
  updatePromptDelayMs: 1000,
  logoFadeOutMs: 100,
  logoFadeInMs: 200,
  timezoneReloadMs: 300,
  languageReloadMs: 1000,
} as const;

export const MAX_MINIMIZED_WINDOWS = 5;
/** 80 MB (product §5, §9). */
export const MAX_FILE_SIZE_BYTES = 83_886_080;
export const GENERATED_PASSWORD_LENGTH = 16;
export const ROLE_TITLE_DISPLAY_LIMIT = 45;
/** Terms-of-service flag key (product §9). */
export const TOS_VERSION = 20230118;

export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'nb', name: 'Norsk' },
  { code: 'ja', name: '日本語' },
  { code: 'uk', name: 'Українська' },
] as const;
export type LanguageCode = (typeof LANGUAGES)[number]['code'];

/** Time format of product §9 (dayjs tokens). */
export const TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

/** The account side the spec calls `{auth}` (product §7 Session). */
export const AUTH_BASE = '/api/auth';
/** Anti-forgery cookie and header (product §7 General). */
export const XSRF_COOKIE = 'XSRF-TOKEN';
/**
 * The product-specific anti-forgery cookie the console prefers when present (product §7
 * General): the server sets it instead of XSRF-TOKEN where the console is served over
 * https, with the `__Host-` prefix (bound to this host, Secure, path /).
 */
export const PRODUCT_XSRF_COOKIE = '__Host-FLEETGATE-XSRF-TOKEN';
export const XSRF_HEADER = 'X-XSRF-TOKEN';
