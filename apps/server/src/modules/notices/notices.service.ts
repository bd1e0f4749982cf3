import type {
  NoticeCreateBody,
  NoticeStatus,
  NoticeType,
  NoticeUpdateBody,
} from '@fleetgate/shared/schemas/notices';
import type { Db } from '#src/db/database';
import { badRequest, notFound } from '#src/http/errors';
import type { ListQuery } from '#src/http/list-query';
import { audited } from '../audit/audit.service';
import { callerAudit, type ServiceContext } from '../service-context';
import { presentAdminNotice, presentNotice } from './notices.presenter';
import { type NoticeRow, noticesRepository } from './notices.repository';
import { sanitizeRichText, visibleText } from './rich-text';

/** Most notices a user is shown at once; older ones stay in the administration. */
export const ACTIVE_NOTICES_LIMIT = 50;

/**
 * When a notice starts to show. A time already past means now, so that enabling a
 * notice always makes it the newest one and users see it marked 'Important' (product §4).
 */
function startTime(value: string | null | undefined, now: Date): Date | null {
  if (!value) return null;
  const at = new Date(value);
  return at.getTime() < now.getTime() ? now : at;
}

/** The message as stored: sanitised (product §5), and never without visible text. */
function cleanMessage(message: string): string {
  const clean = sanitizeRichText(message);
  if (!visibleText(clean)) throw badRequest('Message has no visible text', 'message');
  return clean;
}

const auditEntry = (ctx: ServiceContext, action: string, row: NoticeRow, details?: Record<string, unknown>) =>
  callerAudit(ctx, {
    action: `notice.${action}`,
    targetType: 'notice',
    targetId: row.id,
    ...(details ? { details } : {}),
  });

async function existing(db: Db, id: number): Promise<NoticeRow> {
  const row = await noticesRepository.find(db, id);
  if (!row) throw notFound('Notice');
  return row;
}

/** Global notices of product §3/§4: the users' read and the operator's administration. */
export const noticesService = {
  async active(ctx: ServiceContext) {
    const rows = await noticesRepository.active(ctx.db, new Date(), ACTIVE_NOTICES_LIMIT);
    return rows.map(presentNotice);
  },

  async list(ctx: ServiceContext, query: ListQuery, filters: { status?: NoticeStatus; type?: NoticeType }) {
    const now = new Date();
    const { rows, total } = await noticesRepository.list(ctx.db, query, filters, now);
    return { data: rows.map((row) => presentAdminNotice(row, now)), total };
  },

  async get(ctx: ServiceContext, id: number) {
    return presentAdminNotice(await existing(ctx.db, id), new Date());
  },

  async create(ctx: ServiceContext, body: NoticeCreateBody) {
    const now = new Date();
    const values = {
      type: body.type,
      message: cleanMessage(body.message),
      enabledAt: startTime(body.enabled_at, now),
      // The real person, also when impersonating (ARCHITECTURE §6).
      createdBy: ctx.caller.actor?.id ?? ctx.caller.principal.id,
    };
    const row = await audited(
      ctx.db,
      (tx) => noticesRepository.insert(tx, values),
      (made) => auditEntry(ctx, 'create', made, { type: made.type, enabled_at: made.enabledAt }),
    );
    return presentAdminNotice(row, now);
  },

  async update(ctx: ServiceContext, id: number, body: NoticeUpdateBody) {
    const now = new Date();
    const before = await existing(ctx.db, id);
    // An unchanged time stays as it was; only a new one is moved up to now.
    const unchanged =
      (body.enabled_at ?? null) === null
        ? before.enabledAt === null
        : before.enabledAt !== null && new Date(body.enabled_at!).getTime() === before.enabledAt.getTime();
    const values = {
      type: body.type,
      message: cleanMessage(body.message),
      enabledAt: unchanged ? before.enabledAt : startTime(body.enabled_at, now),
    };
    const row = await audited(
      ctx.db,
      (tx) => noticesRepository.update(tx, id, values),
      (done) =>
        done ? auditEntry(ctx, 'update', done, { type: done.type, enabled_at: done.enabledAt }) : null,
    );
    if (!row) throw notFound('Notice');
    return presentAdminNotice(row, now);
  },

  async enable(ctx: ServiceContext, id: number, at: string | undefined) {
    const now = new Date();
    await existing(ctx.db, id);
    const row = await audited(
      ctx.db,
      (tx) => noticesRepository.update(tx, id, { enabledAt: startTime(at ?? now.toISOString(), now) }),
      (done) => (done ? auditEntry(ctx, 'enable', done, { enabled_at: done.enabledAt }) : null),
    );
    if (!row) throw notFound('Notice');
    return presentAdminNotice(row, now);
  },

  async disable(ctx: ServiceContext, id: number) {
    await existing(ctx.db, id);
    const row = await audited(
      ctx.db,
      (tx) => noticesRepository.update(tx, id, { enabledAt: null }),
      (done) => (done ? auditEntry(ctx, 'disable', done) : null),
    );
    if (!row) throw notFound('Notice');
    return presentAdminNotice(row, new Date());
  },

  async remove(ctx: ServiceContext, id: number) {
    const row = await audited(
      ctx.db,
      (tx) => noticesRepository.remove(tx, id),
      (done) => (done ? auditEntry(ctx, 'delete', done, { type: done.type }) : null),
    );
    if (!row) throw notFound('Notice');
    return { id: row.id };
  },
};
