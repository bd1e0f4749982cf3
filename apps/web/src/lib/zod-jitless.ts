// The core's config is the one every zod schema reads; importing it from 'zod' would put the
// whole library in the first download of every page.
import { config } from 'zod/v4/core';

/**
 * The console's Content-Security-Policy allows no eval (docs/security.md, 'Response headers').
 * zod would otherwise compile its object parsers with `new Function`, and its probe for
 * whether it may is itself reported as a policy violation; the interpreted parsers give the
 * same answers. Imported first by main.tsx, before any schema parses.
 */
config({ jitless: true });
