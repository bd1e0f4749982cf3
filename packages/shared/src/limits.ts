/** Validation constants (spec §5) used by the zod schemas and the inputs alike. */

export const EMAIL_MAX = 254;
/** Passwords: long enough to matter, short enough to bound argon2 input. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

export const COMPANY_NAME_MIN = 3;
export const NAME_MAX = 255;
export const COMMENT_MAX = 200;
export const CODE_AMOUNT_MAX_DIGITS = 12;

/** Forbidden characters in names (spec §5): ~ ! # $ & * ( ) [ ] { } < > ? ' | ; ` / : " and backslash. */
export const FORBIDDEN_NAME_CHARS = `~!#$&*()[]{}<>?'|;\`/:"\\`;

/** True when the value holds none of the forbidden characters of spec §5. */
export function hasNoForbiddenChars(value: string): boolean {
  for (const ch of value) if (FORBIDDEN_NAME_CHARS.includes(ch)) return false;
  return true;
}

/** Monitoring intervals (spec §5, §9), seconds. */
export const MONITORING = {
  minSeconds: 60,
  maxSeconds: 31_536_000,
  defaultSeconds: 300,
  staticSeconds: 1_296_000,
  activeParametersLimit: 200,
} as const;
