import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LANGUAGE_STORAGE_KEY } from '#src/i18n/i18n';
import { userStorage } from '#src/lib/storage/user-storage';
import { cookieColorSchemeManager, DARK_MODE_COOKIE, readDarkMode } from './dark-mode';
import { chooseLanguage } from './language';
import { resetTimezone, saveTimezone } from './timezone';

type Call = { url: string; method: string; body: unknown };
let calls: Call[];
let status: number;
/** The user's storage records, as GET /storage answers. */
let stored: { key: string; value: unknown }[];

beforeEach(() => {
  calls = [];
  status = 200;
  stored = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    const method = init.method ?? 'GET';
    calls.push({ url, method, body: init.body ? JSON.parse(String(init.body)) : null });
    const body =
      method === 'GET'
        ? { success: true, data: stored, meta: { total: stored.length } }
        : status === 200
          ? { success: true, data: { key: 'timezone' } }
          : { success: false, errors: [{ code: 'NOT_FOUND', message: 'Record not found' }] };
    return new Response(JSON.stringify(body), { status });
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('dark mode (product §4): a cookie, auto when unset', () => {
  it('stores on and off in the cookie and removes it for auto', () => {
    const manager = cookieColorSchemeManager();
    manager.set('dark');
    expect(document.cookie).toContain(`${DARK_MODE_COOKIE}=on`);
    expect(manager.get('light')).toBe('dark');
    manager.set('light');
    expect(readDarkMode()).toBe('off');
    expect(manager.get('dark')).toBe('light');
    manager.set('auto');
    expect(document.cookie).not.toContain(DARK_MODE_COOKIE);
    expect(manager.get('light')).toBe('auto');
  });
});

describe('language (product §4, §9)', () => {
  it('stores the choice where i18n reads it and reloads after 1 s', () => {
    vi.useFakeTimers();
    const reload = vi.fn();
    chooseLanguage('ja', reload);
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('ja');
    vi.advanceTimersByTime(999);
    expect(reload).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(reload).toHaveBeenCalledOnce();
  });
});

describe('system timezone (product §4, §9)', () => {
  it('saves the zone in per-user storage, then reloads after 300 ms', async () => {
    const reload = vi.fn();
    await saveTimezone('Asia/Tokyo', reload);
    expect(calls).toEqual([{ url: '/api/storage/timezone', method: 'PUT', body: { value: 'Asia/Tokyo' } }]);
    expect(reload).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(reload).toHaveBeenCalledOnce(), { timeout: 1000 });
  });

  it('reset removes the saved zone and reloads', async () => {
    stored = [{ key: 'timezone', value: 'Asia/Tokyo' }];
    await userStorage.load();
    calls = [];
    const reload = vi.fn();
    await resetTimezone(reload);
    expect(calls).toEqual([{ url: '/api/storage/timezone', method: 'DELETE', body: null }]);
    await vi.waitFor(() => expect(reload).toHaveBeenCalledOnce(), { timeout: 1000 });
  });

  it('reset with no zone saved asks nothing of the server and reloads', async () => {
    userStorage.remove('timezone');
    await userStorage.load();
    calls = [];
    const reload = vi.fn();
    await resetTimezone(reload);
    expect(calls).toEqual([]);
    await vi.waitFor(() => expect(reload).toHaveBeenCalledOnce(), { timeout: 1000 });
  });

  it('reset of a zone removed meanwhile elsewhere still reloads', async () => {
    stored = [{ key: 'timezone', value: 'Asia/Tokyo' }];
    await userStorage.load();
    status = 404;
    const reload = vi.fn();
    await resetTimezone(reload);
    await vi.waitFor(() => expect(reload).toHaveBeenCalledOnce(), { timeout: 1000 });
  });

  it('a failed save does not reload', async () => {
    status = 500;
    const reload = vi.fn();
    await expect(saveTimezone('UTC', reload)).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(reload).not.toHaveBeenCalled();
  });
});
