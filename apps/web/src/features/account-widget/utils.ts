import type { CurrentUser } from '@fleetgate/shared/schemas/auth';

/** Impersonation access is active only while its limit is in the future (product §4 Session). */
export function impersonationAccessUntil(
  user: Pick<CurrentUser, 'impersonation_access_limit'>,
  now: number = Date.now(),
): string | null {
  const limit = user.impersonation_access_limit;
  if (!limit) return null;
  const at = Date.parse(limit);
  return Number.isFinite(at) && at > now ? limit : null;
}

/** Users of company 0 load no company data nor summary (product §6 Gating). */
export function loadsCompanyData(user: Pick<CurrentUser, 'company_id'>): boolean {
  return user.company_id !== 0;
}

/** Bytes in base-1024 units (product §9). */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(2).replace(/\.?0+$/, '')} ${units[unit]}`;
}
