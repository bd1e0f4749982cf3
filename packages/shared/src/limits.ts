/**
 * Validation constants (product §5) used by the zod schemas and the inputs alike, and the rules
 * of the characters a name may hold.
 */

export const EMAIL_MAX = 254;
/** Passwords: long enough to matter, short enough to bound argon2 input. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

export const COMPANY_NAME_MIN = 3;
/** product §3 newCompany: a parent is a company of level 1 or 2 (the top company is level 1). */
export const COMPANY_PARENT_LEVELS = [1, 2] as const;
/** So no company sits deeper than level 3, whether created there or moved there. */
export const COMPANY_MAX_LEVEL = Math.max(...COMPANY_PARENT_LEVELS) + 1;
export const NAME_MAX = 255;
export const COMMENT_MAX = 200;
export const CODE_AMOUNT_MAX_DIGITS = 12;

/** Forbidden characters in names (product §5): ~ ! # $ & * ( ) [ ] { } < > ? ' | ; ` / : " and backslash. */
export const FORBIDDEN_NAME_CHARS = `~!#$&*()[]{}<>?'|;\`/:"\\`;

/** True when the value holds none of the forbidden characters of product §5. */
export function hasNoForbiddenChars(value: string): boolean {
  for (const ch of value) if (FORBIDDEN_NAME_CHARS.includes(ch)) return false;
  return true;
}

/*
 * Characters that change how text looks without being seen: 'Attk\u202eelif.exe' shows as
 * 'Attkexe.file'. Kept as regular-expression class text so that the rule of names, the rule
 * of multi-line text and the neutraliser of device-reported text share one list.
 */
/** Bidirectional controls: marks, embeddings, overrides and isolates. */
const BIDI_CONTROLS = '\\u061C\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069';
/** Zero-width and invisible format characters, the soft hyphen among them. */
const INVISIBLE_FORMAT = '\\u00AD\\u180E\\u200B-\\u200D\\u2060-\\u2064\\uFEFF';
/** C0 and C1 control characters, DEL among them. */
const CONTROLS = '\\u0000-\\u001F\\u007F-\\u009F';
/** With the `u` flag a class of surrogates matches only a lone one (a pair is one code point). */
const LONE_SURROGATES = '\\uD800-\\uDFFF';
/** Tab, line feed and carriage return: the controls multi-line text keeps. */
const LINE_CONTROLS = '\\t\\n\\r';

const HIDING = new RegExp(`[${BIDI_CONTROLS}${INVISIBLE_FORMAT}]`, 'u');
const UNSAFE_IN_NAME = new RegExp(`[${BIDI_CONTROLS}${INVISIBLE_FORMAT}${CONTROLS}${LONE_SURROGATES}]`, 'u');
const UNSAFE_IN_NAME_ALL = new RegExp(UNSAFE_IN_NAME.source, 'gu');
const UNSAFE_IN_TEXT = new RegExp(
  `(?![${LINE_CONTROLS}])[${BIDI_CONTROLS}${INVISIBLE_FORMAT}${CONTROLS}${LONE_SURROGATES}]`,
  'u',
);

/** The message of a name (or any one-line label) refused by hasNoInvisibleChars. */
export const INVISIBLE_NAME_MESSAGE = 'Name contains invisible or text-direction characters';
/** The message of multi-line text (descriptions, notes) refused by hasNoInvisibleCharsInText. */
export const INVISIBLE_TEXT_MESSAGE = 'Text contains invisible or text-direction characters';

/**
 * True when text shown as a name holds no bidirectional control, no zero-width or other
 * invisible format character, no control character and no lone surrogate: what is shown
 * is what was typed.
 */
export function hasNoInvisibleChars(value: string): boolean {
  return !UNSAFE_IN_NAME.test(value);
}

/** As hasNoInvisibleChars for multi-line text: tab, line feed and carriage return are allowed. */
export function hasNoInvisibleCharsInText(value: string): boolean {
  return !UNSAFE_IN_TEXT.test(value);
}

/**
 * Device-reported text made safe to show, without refusing it (a device is not a person
 * filling a form): bidirectional controls and invisible format characters are removed;
 * tab, line feed and carriage return become a space (kept in `multiline` text); other
 * control characters and lone surrogates become U+FFFD, so that tampering stays visible.
 * Returns the same string when there is nothing to change.
 */
export function neutralizeText(text: string, options: { multiline?: boolean } = {}): string {
  if (!UNSAFE_IN_NAME.test(text)) return text;
  return text.replace(UNSAFE_IN_NAME_ALL, (ch) => {
    if (HIDING.test(ch)) return '';
    if (ch === '\t' || ch === '\n' || ch === '\r') return options.multiline ? ch : ' ';
    return '\uFFFD';
  });
}

/**
 * neutralizeText applied to every string value of a parsed message (objects and arrays,
 * however nested; keys are left as they are). A message with nothing to change is returned
 * as it is.
 */
export function neutralizeTexts<T>(value: T): T {
  if (typeof value === 'string') return neutralizeText(value) as T;
  if (Array.isArray(value)) {
    const items = value.map(neutralizeTexts);
    return (items.some((item, i) => item !== value[i]) ? items : value) as T;
  }
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const entries = Object.entries(value);
    const cleaned = entries.map(([key, item]) => [key, neutralizeTexts(item)] as const);
    return (
      cleaned.some(([, item], i) => item !== entries[i]![1]) ? Object.fromEntries(cleaned) : value
    ) as T;
  }
  return value;
}

/** Monitoring intervals (product §5, §9), seconds. */
export const MONITORING = {
  minSeconds: 60,
  maxSeconds: 31_536_000,
  defaultSeconds: 300,
  staticSeconds: 1_296_000,
  activeParametersLimit: 200,
} as const;
