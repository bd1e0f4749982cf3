/**
 * The console's Content-Security-Policy allows no eval (docs/security.md, 'Response headers').
 * zod would otherwise compile its object parsers with `new Function`, and its probe for
 * whether it may is itself reported as a policy violation; the interpreted parsers give the
 * same answers. Imported first by main.tsx, before any schema parses.
 *
 * zod keeps its configuration on `globalThis.__zod_globalConfig`, so that every copy of the
 * library shares it, and adopts the object it finds there when it loads: the switch is set
 * here without importing zod, which then comes with the first form instead of with every
 * page. zod-jitless.test.ts proves zod still reads it.
 */
const holder = globalThis as { __zod_globalConfig?: Record<string, unknown> };
holder.__zod_globalConfig ??= {};
holder.__zod_globalConfig.jitless = true;

export {};
