import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { actionParamsSchemas } from '../devices/actions';
import { okBody } from './api';

/**
 * Every message a schema gives must be human wording ('Password must be at least 8
 * characters', 'Command is required'), never zod's own ('Too small: expected string to have
 * >=8 characters'): these messages reach people under form fields, from the console's
 * checks and from the server's. This walks every exported schema of this folder (and the
 * device action parameters) with bad inputs, so a check added without a message fails here.
 */

/** How zod's own English messages begin (zod/v4/locales/en). */
const ZOD_DEFAULTS = [
  'Too small',
  'Too big',
  'Invalid input',
  'Invalid option',
  'Invalid string',
  'Invalid number',
  'Invalid discriminator',
  'Invalid key',
  'Invalid value',
  'Expected',
  'Required',
];
/** Issues that only a schema without its own message receives (the per-parse map is below any schema's). */
const NO_MESSAGE = '\u0000no message of its own\u0000';
/**
 * Unknown fields of a strict body are worded by the server's error handler ('Unknown field:
 * x', one entry per field under the field's name); the console never sends them.
 */
const WORDED_ELSEWHERE = new Set(['unrecognized_keys']);

declare global {
  /** Vite's module glob, which Vitest provides (this package has no Vite types of its own). */
  interface ImportMeta {
    glob<T>(patterns: string | string[], options: { eager: true }): Record<string, T>;
  }
}

/** Every schema module of this folder, so that a new file is walked without being listed here. */
const modules = import.meta.glob<Record<string, unknown>>(['./*.ts', '!./*.test.ts'], { eager: true });

const isSchema = (value: unknown): value is z.ZodType => value instanceof z.ZodType;

/** Every exported schema by a readable name, plus the shapes exported as plain objects of schemas. */
function exportedSchemas(): [string, z.ZodType][] {
  const found: [string, z.ZodType][] = [];
  for (const [file, exports] of Object.entries(modules)) {
    for (const [name, value] of Object.entries(exports) as [string, unknown][]) {
      if (isSchema(value)) found.push([`${file}:${name}`, value]);
      else if (value && typeof value === 'object' && !Array.isArray(value)) {
        for (const [key, inner] of Object.entries(value)) {
          if (isSchema(inner)) found.push([`${file}:${name}.${key}`, inner]);
        }
      }
    }
  }
  for (const [action, schema] of Object.entries(actionParamsSchemas)) {
    found.push([`devices/actions:actionParamsSchemas.${action}`, schema]);
  }
  // okBody's own fields; `data` is whichever schema a route gives it.
  found.push(['./api.ts:okBody(...)', okBody(z.null({ error: 'Data must be null' }))]);
  return found;
}

const LONG = 'x'.repeat(100_001);
/** Bad values of any kind: missing, wrong types, empty and blank text, too long text, out-of-range numbers. */
const BAD_VALUES: unknown[] = [
  undefined,
  null,
  '',
  '   ',
  LONG,
  'not a number',
  0,
  -1,
  1.5,
  1e15,
  true,
  [],
  {},
  [''],
  [0],
];

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  options?: z.ZodType[];
  element?: z.ZodType;
  values?: unknown[];
  valueType?: z.ZodType;
};
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** A literal's value (a discriminator), so that the walk reaches the fields behind it. */
function literalOf(schema: z.ZodType): unknown {
  const def = defOf(schema);
  if (def.type === 'literal') return def.values?.[0];
  if (def.innerType) return literalOf(def.innerType);
  return undefined;
}

/** Bad inputs for a schema: the bad values themselves and, inside objects and lists, at every field. */
function badInputs(schema: z.ZodType, depth = 0): unknown[] {
  const def = defOf(schema);
  const inputs = [...BAD_VALUES];
  if (depth > 3) return inputs;
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return def.innerType ? badInputs(def.innerType, depth) : inputs;
    case 'pipe':
      return [...badInputs(def.in!, depth), ...(def.out ? badInputs(def.out, depth + 1) : [])];
    case 'union':
      return [...inputs, ...(def.options ?? []).flatMap((option) => badInputs(option, depth + 1))];
    case 'array':
      return [
        ...inputs,
        ...badInputs(def.element!, depth + 1).map((item) => [item]),
        Array.from({ length: 5000 }, (_, i) => i + 1),
      ];
    case 'record':
      return [...inputs, ...badInputs(def.valueType!, depth + 1).map((value) => ({ key: value }))];
    case 'object': {
      const shape = def.shape ?? {};
      // Literal fields (discriminators) keep their value, so the fields behind them are checked too.
      const base = Object.fromEntries(
        Object.entries(shape)
          .map(([key, field]) => [key, literalOf(field)] as const)
          .filter(([, value]) => value !== undefined),
      );
      const out: unknown[] = [...inputs, base];
      for (const [key, field] of Object.entries(shape)) {
        for (const value of badInputs(field, depth + 1)) out.push({ ...base, [key]: value });
      }
      return out;
    }
    default:
      return inputs;
  }
}

type Problem = { schema: string; input: string; path: string; code: string; message: string };

function problemsOf(name: string, schema: z.ZodType): Problem[] {
  const problems: Problem[] = [];
  const seen = new Set<string>();
  for (const input of badInputs(schema)) {
    const shown = JSON.stringify(input, (_k, v: unknown) =>
      typeof v === 'string' && v.length > 20 ? `${v.slice(0, 8)}…(${v.length})` : v,
    );
    const issues = [
      ...(schema.safeParse(input, { error: () => NO_MESSAGE }).error?.issues ?? []),
      ...(schema.safeParse(input).error?.issues ?? []),
    ];
    for (const issue of issues) {
      if (WORDED_ELSEWHERE.has(issue.code)) continue;
      const raw = issue.message === NO_MESSAGE || ZOD_DEFAULTS.some((d) => issue.message.startsWith(d));
      if (!raw) continue;
      // Items of a list fail alike: one line per field, not one per position.
      const path = issue.path.map((part) => (typeof part === 'number' ? '*' : String(part))).join('.');
      const key = `${path}|${issue.code}|${issue.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      problems.push({
        schema: name,
        input: shown ?? 'undefined',
        path,
        code: issue.code,
        message: issue.message,
      });
    }
  }
  return problems;
}

describe('schema messages are human wording (product §5, §8)', () => {
  const schemas = exportedSchemas();

  it('finds the schemas to check', () => {
    // A glob that matched nothing would make the walk below pass on nothing.
    expect(schemas.length).toBeGreaterThan(80);
    expect(schemas.map(([name]) => name)).toEqual(
      expect.arrayContaining(['./devices.ts:setPasswordBody', 'devices/actions:actionParamsSchemas.cli']),
    );
  });

  const byName = new Map(schemas);
  // Names only: a failing test's parameters are printed, and a schema prints as megabytes.
  it.each(schemas.map(([name]) => name))('%s gives no zod default message for bad input', (name) => {
    const schema = byName.get(name)!;
    const lines = problemsOf(name, schema).map(
      (p) =>
        `${p.path || '(root)'} [${p.code}] ${p.message === NO_MESSAGE ? '(no message)' : p.message} ← ${p.input}`,
    );
    expect(lines).toEqual([]);
  });

  it('words the findings of the operator as people write them', () => {
    const password = actionParamsSchemas.set_password.safeParse({ password: 'short' });
    expect(password.error?.issues.map((i) => i.message)).toEqual(['Password must be at least 8 characters']);
    const command = actionParamsSchemas.cli.safeParse({ command: '  ' });
    expect(command.error?.issues.map((i) => i.message)).toEqual(['Command is required']);
  });

  it('the walk itself catches a check without a message', () => {
    const bare = z.strictObject({ name: z.string().min(3) });
    expect(problemsOf('bare', bare).map((p) => `${p.path} ${p.code}`)).toEqual(
      expect.arrayContaining(['name invalid_type', 'name too_small']),
    );
    const worded = z.strictObject(
      { name: z.string({ error: 'Name is required' }).min(3, 'Name must be at least 3 characters') },
      { error: 'Request body must be an object' },
    );
    expect(problemsOf('worded', worded)).toEqual([]);
  });
});
