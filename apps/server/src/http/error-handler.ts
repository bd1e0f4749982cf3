import type { ErrorEntry } from '@fleetgate/shared/schemas/api';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from './errors';

/** Fastify's own client errors, mapped to the codes and words of ARCHITECTURE §4. */
const FASTIFY_CODES: Record<string, { code: string; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'PAYLOAD_TOO_LARGE', message: 'Request body is too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Unsupported content type' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'VALIDATION_ERROR', message: 'Invalid content length' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'VALIDATION_ERROR', message: 'Request body must not be empty' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'VALIDATION_ERROR', message: 'Request body is not valid JSON' },
  FST_ERR_VALIDATION: { code: 'VALIDATION_ERROR', message: 'Invalid request' },
};

function send(reply: FastifyReply, status: number, errors: ErrorEntry[], meta?: Record<string, unknown>) {
  return reply.status(status).send(meta ? { success: false, errors, meta } : { success: false, errors });
}

const clientStatus = (status: number | undefined) => (status && status >= 400 && status < 500 ? status : 400);

/** Turns a zod issue path into the field name the forms know (`source`). */
function sourceOf(path: readonly string[]): string | undefined {
  return path.length ? path.join('.') : undefined;
}

/**
 * One error module producing the body of ARCHITECTURE §4. Never a stack trace or SQL
 * text in a response: anything unexpected is logged and answered with a plain 500.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      // RFC 9110: a 401 names how to authenticate; scripts use a personal access token.
      if (error.status === 401) reply.header('www-authenticate', 'Bearer');
      return send(reply, error.status, error.entries, error.meta);
    }

    if (hasZodFastifySchemaValidationErrors(error)) {
      const where = error.validationContext === 'body' ? undefined : error.validationContext;
      const entries = error.validation.flatMap((v): ErrorEntry[] => {
        const path = v.instancePath.split('/').filter(Boolean);
        if (v.keyword === 'unrecognized_keys') {
          // One entry per unknown field, each naming it, so a form can show it where it belongs.
          const keys = (v.params as { keys?: string[] }).keys ?? [];
          return keys.map((key) => ({
            code: 'VALIDATION_ERROR',
            message: `Unknown field: ${key}`,
            source: [...path, key].join('.'),
          }));
        }
        return [
          {
            code: 'VALIDATION_ERROR',
            message: v.message ?? 'Invalid value',
            source: sourceOf(path) ?? where,
          },
        ];
      });
      return send(reply, 400, entries);
    }

    if (error.statusCode === 429) {
      return send(reply, 429, [{ code: 'RATE_LIMITED', message: 'Too many attempts. Try again later.' }]);
    }

    const known = error.code ? FASTIFY_CODES[error.code] : undefined;
    // A client's mistake stays a 4xx even when the validator itself failed on it (a 500 there).
    if (known) return send(reply, clientStatus(error.statusCode), [known]);

    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return send(reply, error.statusCode, [{ code: 'VALIDATION_ERROR', message: 'Invalid request' }]);
    }

    request.log.error({ err: error }, 'unhandled error');
    return send(reply, 500, [{ code: 'INTERNAL_ERROR', message: 'Internal server error' }]);
  });
}
