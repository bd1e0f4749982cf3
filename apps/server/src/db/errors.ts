/**
 * A unique-index violation (PostgreSQL 23505), however the driver wrapped it (Drizzle puts
 * the driver's error in `cause`): the one check every repository and service uses.
 */
export function isUniqueViolation(error: unknown): boolean {
  let e: unknown = error;
  for (let depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    if ((e as { code?: unknown }).code === '23505') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
