import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { SecretBox } from '../auth/secret-key';
import type { Config } from '../config';
import type { Db } from '../db/database';
import type { Gateway } from '../gateway/gateway';
import type { Notify } from '../gateway/notify';
import { requireAuth } from '../plugins/access';
import type { AuthContext } from '../plugins/auth';
import type { Realtime } from '../realtime/realtime';
import { type AuditEntry, auditIdentity } from './audit/audit.service';
import type { BrandCache } from './brand/brand-cache';
import type { MailService } from './mail/mail.service';
import type { Notifier } from './notifications/notifier';

/**
 * What every service function receives as its first argument (`areaService.verb(ctx, ...)`):
 * the server's parts it may use, and who is asking. Routes make it with `serviceContext`
 * and pass it on; services check access first, then act through repositories.
 */
export type PublicContext = {
  db: Db;
  /** The client's address, for the audit log. */
  address: string;
  /** Where e-mailed links point: PUBLIC_URL, else the address the request came to. */
  baseUrl: string;
  config: Config;
  secrets: SecretBox;
  log: FastifyBaseLogger;
  realtime: Realtime;
  gateway: Gateway;
  /** Device events to browsers and the server's listeners (gateway/notify.ts). */
  deviceNotify: Notify;
  mail: MailService;
  notifications: Notifier;
  /** The brands kept in memory, dropped as the database announces changes (brand/brand-cache.ts). */
  brands: BrandCache;
};

/** A signed-in caller's context: the session, the user acted as, and the real person. */
export type ServiceContext = PublicContext & { caller: AuthContext };

/** The context of a request that needs no sign-in (sign-in itself, invitation links). */
export function publicContext(app: FastifyInstance, request: FastifyRequest): PublicContext {
  return new RequestContext(app, request);
}

/**
 * A request's context. The address and the base URL are read when a service asks for them
 * (an audit entry, a mail), not on every request: each costs header parsing or a system call.
 * Being getters, they do not survive a spread: a changed copy comes from `withParts`.
 */
class RequestContext implements PublicContext {
  readonly db: Db;
  readonly config: Config;
  readonly secrets: SecretBox;
  readonly log: FastifyBaseLogger;
  readonly realtime: Realtime;
  readonly gateway: Gateway;
  readonly deviceNotify: Notify;
  readonly mail: MailService;
  readonly notifications: Notifier;
  readonly brands: BrandCache;
  private seenAddress: string | undefined;
  private seenBaseUrl: string | undefined;

  constructor(
    app: FastifyInstance,
    private readonly request: FastifyRequest,
  ) {
    this.db = app.db;
    this.config = app.config;
    this.secrets = app.secrets;
    this.log = request.log;
    this.realtime = app.realtime;
    this.gateway = app.gateway;
    this.deviceNotify = app.deviceNotify;
    this.mail = app.mail;
    this.notifications = app.notifications;
    this.brands = app.brands;
  }

  get address(): string {
    this.seenAddress ??= this.request.ip;
    return this.seenAddress;
  }

  get baseUrl(): string {
    this.seenBaseUrl ??= (this.config.publicUrl ?? `${this.request.protocol}://${this.request.host}`).replace(
      /\/$/,
      '',
    );
    return this.seenBaseUrl;
  }
}

/** A context with some parts changed (a transaction's `db`, a caller), reading the rest from `ctx`. */
export function withParts<T extends PublicContext, P extends Partial<ServiceContext>>(
  ctx: T,
  parts: P,
): T & P {
  return Object.assign(Object.create(ctx) as T, parts);
}

/**
 * The context of a WebSocket upgrade the server handles itself (the remote-access bridges):
 * no Fastify request exists, so the parts come from the app and the caller from the
 * handshake's session cookie.
 */
export function upgradeContext(
  app: FastifyInstance,
  request: { socket: { remoteAddress?: string | undefined }; headers: { host?: string | undefined } },
  caller: AuthContext,
): ServiceContext {
  return {
    db: app.db,
    address: request.socket.remoteAddress ?? '',
    baseUrl: (app.config.publicUrl ?? `http://${request.headers.host ?? 'localhost'}`).replace(/\/$/, ''),
    config: app.config,
    secrets: app.secrets,
    log: app.log,
    realtime: app.realtime,
    gateway: app.gateway,
    deviceNotify: app.deviceNotify,
    mail: app.mail,
    notifications: app.notifications,
    brands: app.brands,
    caller,
  };
}

/** The context of a signed-in request; a 401 without a caller. */
export function serviceContext(app: FastifyInstance, request: FastifyRequest): ServiceContext {
  // Not spread: spreading would read the lazy parts at once.
  return Object.assign(publicContext(app, request), { caller: requireAuth(request) });
}

/**
 * An audit entry of the caller's: who did it (both people when impersonating) and from
 * where, with what the service says happened.
 */
export function callerAudit(
  ctx: ServiceContext,
  entry: Omit<AuditEntry, 'actorUserId' | 'subjectUserId' | 'ip'>,
): AuditEntry {
  return { ...entry, ...auditIdentity(ctx.caller), ip: ctx.address };
}
