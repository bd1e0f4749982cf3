import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ClientInfo } from '../auth/auth.service';

/** Where e-mailed links point: PUBLIC_URL when set, else the address the request came to. */
export function publicBase(app: FastifyInstance, request: FastifyRequest): string {
  return (app.config.publicUrl ?? `${request.protocol}://${request.host}`).replace(/\/$/, '');
}

export const clientOf = (request: FastifyRequest): ClientInfo => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'],
});

/** Timestamps as the API answers them (ISO 8601), whatever the driver handed back. */
export function iso(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}
