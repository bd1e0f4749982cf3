import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { responseSerializer } from './serializer';

const user = z.object({
  id: z.number().int(),
  email: z.string(),
  parent_id: z.number().int().nullable(),
  actor: z.object({ id: z.number().int() }).nullable(),
  created_at: z.date(),
  tags: z.array(z.object({ name: z.string() })),
});

const compile = (schema: z.ZodType, checkAnswers = false) =>
  responseSerializer({ checkAnswers })({ schema, method: 'GET', url: '/api/test', httpStatus: '200' });

const row = {
  id: 7,
  email: 'ops@example.test',
  parent_id: null,
  actor: { id: 2, password_hash: 'secret-hash' },
  created_at: new Date('2026-11-27T10:00:00.000Z'),
  tags: [{ name: 'north', internal: 'x' }],
  password_hash: 'secret-hash',
};

describe('the response writer', () => {
  it('writes what zod would, and no undeclared field, at any depth', () => {
    const written = compile(user)(row);
    expect(JSON.parse(written)).toEqual({
      id: 7,
      email: 'ops@example.test',
      parent_id: null,
      actor: { id: 2 },
      created_at: '2026-11-27T10:00:00.000Z',
      tags: [{ name: 'north' }],
    });
    expect(written).not.toContain('secret-hash');
    expect(written).not.toContain('internal');
  });

  it('writes nullable objects and numbers both ways', () => {
    const written = JSON.parse(compile(user)({ ...row, parent_id: 3, actor: null }));
    expect(written.parent_id).toBe(3);
    expect(written.actor).toBeNull();
  });

  it('holds answers against the schema when asked to, naming the route', () => {
    const wrong = { ...row, email: 42 };
    expect(() => compile(user, true)(wrong)).toThrow(/doesn't match the schema/);
    expect(() => compile(user, true)(row)).not.toThrow();
  });

  it('leaves codecs to zod, which encodes them', () => {
    const cents = z.codec(z.number(), z.string(), {
      decode: (n) => (n / 100).toFixed(2),
      encode: (s) => Math.round(Number(s) * 100),
    });
    expect(compile(z.object({ price: cents }))({ price: '12.34' })).toBe('{"price":1234}');
  });

  it('leaves schemas JSON Schema cannot say to zod, and still strips', () => {
    const odd = z.object({ at: z.custom<string>((v) => typeof v === 'string') });
    expect(compile(odd)({ at: 'now', extra: 1 })).toBe('{"at":"now"}');
  });
});
