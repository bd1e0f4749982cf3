import { SIGN_IN_PATH } from '@fleetgate/shared/routes';
import type { FastifyRequest } from 'fastify';
import type { ClientInfo } from '../auth/auth.service';

/** The sign-in page of the console; an account lock's e-mailed link opens it with `?unlock=`. */
export const LOGIN_PAGE = SIGN_IN_PATH;

export const clientOf = (request: FastifyRequest): ClientInfo => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'],
});

/** Timestamps as the API answers them (ISO 8601), whatever the driver handed back. */
export function iso(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}
