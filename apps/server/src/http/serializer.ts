import fastJson from 'fast-json-stringify';
import { serializerCompiler as zodSerializer } from 'fastify-type-provider-zod';
import { toJSONSchema, type ZodType } from 'zod';

type Compile = typeof zodSerializer;
type Route = Parameters<Compile>[0];

/**
 * What zod alone writes: types JSON Schema cannot say (dates aside, written as ISO text as
 * JSON.stringify does), and what writes another shape than it reads, which zod encodes:
 * defaults, catches and codecs (a pipe that can run backwards).
 */
const ZOD_ONLY = new Set([
  'bigint',
  'symbol',
  'undefined',
  'void',
  'map',
  'set',
  'transform',
  'nan',
  'custom',
  'function',
  'promise',
  'default',
  'prefault',
  'catch',
]);

/** The JSON Schema of a response as it leaves, or undefined when only zod can write it. */
function jsonSchemaOf(schema: ZodType): object | undefined {
  let sayable = true;
  try {
    const json = toJSONSchema(schema, {
      io: 'output',
      unrepresentable: 'any',
      cycles: 'ref',
      override({ zodSchema, jsonSchema }) {
        const def = zodSchema._zod.def as { type: string; reverseTransform?: unknown };
        if (def.type === 'date') Object.assign(jsonSchema, { type: 'string', format: 'date-time' });
        else if (ZOD_ONLY.has(def.type) || def.reverseTransform) sayable = false;
      },
    });
    return sayable ? (mergeNullable(json) as object) : undefined;
  } catch {
    return undefined;
  }
}

type Json = { [key: string]: unknown };

/**
 * `X | null`, which zod writes as `anyOf`, as the one schema with both types: the compiled
 * writer then tests `=== null` where an `anyOf` would run a validator on every value.
 */
function mergeNullable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(mergeNullable);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) out[key] = mergeNullable(value);
  const anyOf = out.anyOf as Json[] | undefined;
  if (anyOf?.length === 2 && Object.keys(out).length === 1) {
    const nullAt = anyOf.findIndex((branch) => branch.type === 'null' && Object.keys(branch).length === 1);
    const other = anyOf[1 - nullAt];
    if (nullAt >= 0 && other && typeof other.type === 'string' && !('anyOf' in other))
      return { ...other, type: [other.type, 'null'] };
  }
  return out;
}

/**
 * Writes each route's answers from its zod response schema, the contract the OpenAPI
 * description publishes. Where the schema is plain JSON (almost every route), it is
 * compiled once by fast-json-stringify, which writes the declared properties and nothing
 * else, so an undeclared field (a hash, a secret) still never leaves; codecs and anything
 * JSON Schema cannot say go through zod's encoder as before. `checkAnswers` (tests and
 * development) also holds every answer against the schema with zod and fails the request
 * on a mismatch, so a handler returning the wrong shape is caught where it is written;
 * production pays only for the compiled writer (docs/performance.md, the signed-in floor).
 */
export function responseSerializer(options: { checkAnswers: boolean }): Compile {
  return (route: Route) => {
    const viaZod = zodSerializer(route);
    const schema = route.schema as ZodType;
    const json = jsonSchemaOf(schema);
    if (!json) return viaZod;
    const write = fastJson(json as Parameters<typeof fastJson>[0]);
    if (!options.checkAnswers) return (data: unknown) => write(data);
    return (data: unknown) => {
      viaZod(data); // throws ResponseSerializationError on a wrong shape
      return write(data);
    };
  };
}
