import { z } from 'zod';

/**
 * The words of validation messages (product §5, §8), so that every check of every schema says
 * what is wrong the way a person would ('Password must be at least 8 characters', 'Command
 * is required') instead of zod's own ('Too small: expected string to have >=8 characters').
 * messages.test.ts walks every exported schema and fails on a check without its own words.
 */

export const isRequired = (label: string) => `${label} is required`;
export const atLeastChars = (label: string, n: number) => `${label} must be at least ${n} characters`;
export const atMostChars = (label: string, n: number) => `${label} must be at most ${n} characters`;
export const atLeast = (label: string, n: number) => `${label} must be at least ${n}`;
export const atMost = (label: string, n: number) => `${label} must be at most ${n}`;
export const wholeNumber = (label: string) => `${label} must be a whole number`;

/**
 * The message of a value of the wrong type: a missing one (undefined or null) is 'required',
 * anything else 'must be {kind}'. Unknown fields of a strict object keep their own issue,
 * which the server turns into one 'Unknown field: x' per field.
 */
export function typeMessage(label: string, kind: string) {
  return (issue: { code?: string; input?: unknown }) => {
    if (issue.code === 'unrecognized_keys') return undefined;
    return issue.input === undefined || issue.input === null ? isRequired(label) : `${label} must be ${kind}`;
  };
}

/** Text. */
export const text = (label: string) => z.string({ error: typeMessage(label, 'text') });

/** Text of at most `max` characters (identifiers, tokens, labels of data). */
export const shortText = (label: string, max: number) => text(label).max(max, atMostChars(label, max));

/** A whole number. */
export const whole = (label: string) =>
  z.number({ error: typeMessage(label, 'a number') }).int(wholeNumber(label));

/** Any number. */
export const numeric = (label: string) => z.number({ error: typeMessage(label, 'a number') });

/** True or false. */
export const flag = (label: string) => z.boolean({ error: typeMessage(label, 'true or false') });

/** A point in time as the server holds it. */
export const instant = (label: string) => z.date({ error: typeMessage(label, 'a date') });

/** A point in time as the server holds it (Date) or as JSON carries it (ISO text). */
export const instantOrText = (label: string) =>
  z.union([z.date(), z.string()], { error: typeMessage(label, 'a date') });

/** One of a fixed set of values. */
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T, label: string) =>
  z.enum(values, { error: `${label} must be one of: ${values.join(', ')}` });

/** A list of items. */
export const listOf = <T extends z.ZodType>(item: T, label: string) =>
  z.array(item, { error: typeMessage(label, 'a list') });

/** An object with keys of any name (device state, command parameters). */
export const anyObject = (label: string) =>
  z.record(z.string(), z.unknown(), { error: typeMessage(label, 'an object') });

/** An object of known fields; unknown ones pass through. */
export const fields = <S extends z.ZodRawShape>(label: string, shape: S) =>
  z.object(shape, { error: typeMessage(label, 'an object') });

/** A request body: known fields only (unknown ones are refused, and the server names each). */
export const body = <S extends z.ZodRawShape>(shape: S, label = 'Request body') =>
  z.strictObject(shape, { error: typeMessage(label, 'an object') });
