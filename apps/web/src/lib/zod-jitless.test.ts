// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';

describe('zod-jitless', () => {
  it('switches zod to its interpreted parsers before zod loads, and zod obeys', async () => {
    vi.resetModules();
    delete (globalThis as { __zod_globalConfig?: unknown }).__zod_globalConfig;
    await import('./zod-jitless');
    const { config, z } = await import('zod');
    expect(config().jitless).toBe(true);
    // With the switch on, parsing an object never builds a function from a string.
    const built = vi.spyOn(globalThis, 'Function');
    expect(z.object({ a: z.string(), b: z.number() }).parse({ a: 'x', b: 1 })).toEqual({ a: 'x', b: 1 });
    expect(built).not.toHaveBeenCalled();
    built.mockRestore();
  });
});
