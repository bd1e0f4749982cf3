import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors';

/** Deeper than any body or query the API takes; deeper ones are refused before validation. */
export const MAX_INPUT_DEPTH = 32;

/** NUL cannot be stored in PostgreSQL text, and a lone surrogate is not text at all (no UTF-8). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what this rule looks for.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const UNSTORABLE_TEXT_MESSAGE = 'Text must not contain NUL characters or broken Unicode';
export const TOO_DEEP_MESSAGE = 'Request is nested too deeply';

/**
 * The first problem of a parsed body or query that no route could store: text PostgreSQL
 * refuses, or nesting deeper than MAX_INPUT_DEPTH. Walked without recursion, so a hostile
 * depth cannot exhaust the stack. Answers the offending field's path.
 */
export function unstorableInput(value: unknown): { message: string; source?: string } | undefined {
  const stack: { value: unknown; path: string[] }[] = [{ value, path: [] }];
  while (stack.length) {
    const { value: item, path } = stack.pop()!;
    if (typeof item === 'string') {
      if (UNSTORABLE.test(item)) return { message: UNSTORABLE_TEXT_MESSAGE, ...sourceOf(path) };
      continue;
    }
    if (item === null || typeof item !== 'object' || !plain(item)) continue;
    if (path.length >= MAX_INPUT_DEPTH) return { message: TOO_DEEP_MESSAGE, ...sourceOf(path.slice(0, 1)) };
    for (const [key, child] of Object.entries(item)) {
      if (UNSTORABLE.test(key)) return { message: UNSTORABLE_TEXT_MESSAGE, ...sourceOf(path) };
      stack.push({ value: child, path: [...path, key] });
    }
  }
  return undefined;
}

/**
 * Parsed JSON and query strings are made of arrays and objects of data (the query parser's
 * have a prototype of their own); binary data, dates and streams are not walked.
 */
function plain(item: object): boolean {
  if (Array.isArray(item)) return true;
  return (
    !ArrayBuffer.isView(item) &&
    !(item instanceof Date) &&
    typeof (item as { pipe?: unknown }).pipe !== 'function'
  );
}

const sourceOf = (path: string[]) => (path.length ? { source: path.join('.') } : {});

/**
 * Refuses, as 400 before any route sees it, input that no route could store (docs/security.md,
 * hostile input): every bad input is a clear 400, never a 500 from the database, and never
 * a change half made.
 */
export function registerInputGuard(app: FastifyInstance): void {
  // Callback style: a check that waits for nothing needs no promise on every request.
  app.addHook('preValidation', (request, _reply, done) => {
    // A page of the console or a static file reads nothing of its address: the console
    // loads and its own requests to the API meet this guard, with the console to show why.
    if ((request.method === 'GET' || request.method === 'HEAD') && !request.url.startsWith('/api/'))
      return done();
    for (const part of [request.params, request.query, request.body]) {
      const problem = unstorableInput(part);
      if (problem) throw badRequest(problem.message, problem.source);
    }
    done();
  });
}
