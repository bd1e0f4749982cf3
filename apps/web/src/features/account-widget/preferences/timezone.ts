import { UI_TIMINGS } from '@fleetgate/shared/constants';
import { api } from '#src/lib/http/client';
import { ApiError } from '#src/lib/http/errors';
import { userStorage } from '#src/lib/storage/user-storage';
import { TIMEZONE_STORAGE_KEY } from '#src/lib/time';

const path = `/storage/${TIMEZONE_STORAGE_KEY}`;
/** Preference writes must not be cut by a navigation (product §7 Storage). */
const KEEP = { keepOnRouteChange: true } as const;

const reloadSoon = (reload: () => void) => setTimeout(reload, UI_TIMINGS.timezoneReloadMs);

/**
 * Saves the system timezone in per-user storage (see lib/time.ts), waiting for the server
 * so that the reload 300 ms later (product §4, §9) reads the new value.
 */
export async function saveTimezone(zone: string, reload = () => window.location.reload()): Promise<void> {
  await api.put(path, { value: zone }, KEEP);
  reloadSoon(reload);
}

/**
 * Removes the saved zone: the browser-guessed one is used after the reload (product §4).
 * With none saved there is nothing to remove, and nothing is asked of the server.
 */
export async function resetTimezone(reload = () => window.location.reload()): Promise<void> {
  if (userStorage.has(TIMEZONE_STORAGE_KEY)) {
    try {
      await api.delete(path, KEEP);
    } catch (error) {
      // Removed meanwhile in another browser: the default zone is what is wanted.
      if (!(error instanceof ApiError && error.status === 404)) throw error;
    }
  }
  reloadSoon(reload);
}
