import type {
  NoticeCreateBody,
  NoticeStatus,
  NoticeType,
  NoticeUpdateBody,
} from '@fleetgate/shared/schemas/notices';
import type { Db } from '../../db/database';
import { badRequest, notFound } from '../../http/errors';
import type { ListQuery } from '../../http/list-query';
import type { AuthContext } from '../../plugins/auth';
import { type AuditEntry, audited, auditIdentity } from '../audit/audit.service';
import { presentAdminNotice, presentNotice } from './notices.presenter';
import { type NoticeRow, noticesRepository } from './notices.repository';
import { sanitizeRichText, visibleText } from './rich-text';

/** Most notices a user is shown at once; older ones stay in the administration. */
export const ACTIVE_NOTICES_LIMIT = 50;

type Actor = { auth: AuthContext; ip: string };

/**
 * When a notice starts to show. A time already past means now, so that enabling a
 * notice always makes it the newest one and users see it marked 'Important' (spec §4).
 */
function startTime(value: string | null | undefined, now: Date): Date | null {
  if (!value) return null;
  const at = new Date(value);
  return at.getTime() < now.getTime() ? now : at;
}

/** The message as stored: sanitised (spec §5), and never without visible text. */
function cleanMessage(message: string): string {
  const clean = sanitizeRichText(message);
  if (!visibleText(clean)) throw badRequest('Message has no visible text', 'message');
  return clean;
}

function auditEntry(
  actor: Actor,
  action: string,
  row: NoticeRow,
  details?: Record<string, unknown>,
): AuditEntry {
  return {
    action: `notice.${action}`,
    ...auditIdentity(actor.auth),
    targetType: 'notice',
    targetId: row.id,
    ip: actor.ip,
    ...(details ? { details } : {}),
  };
}

async function existing(db: Db, id: number): Promise<NoticeRow> {
  const row = await noticesRepository.find(db, id);
  if (!row) throw notFound('Notice');
  return row;
}

/** Global notices of spec §3/§4: the users' read and the operator's administration. */
export const noticesService = {
  async active(db: Db) {
    const rows = await noticesRepository.active(db, new Date(), ACTIVE_NOTICES_LIMIT);
    return rows.map(presentNotice);
  },

  async list(db: Db, query: ListQuery, filters: { status?: NoticeStatus; type?: NoticeType }) {
    const now = new Date();
    const { rows, total } = await noticesRepository.list(db, query, filters, now);
    return { data: rows.map((row) => presentAdminNotice(row, now)), total };
  },

  async get(db: Db, id: number) {
    return presentAdminNotice(await existing(db, id), new Date());
  },

  async create(db: Db, actor: Actor, body: NoticeCreateBody) {
    const now = new Date();
    const values = {
      type: body.type,
      message: cleanMessage(body.message),
      enabledAt: startTime(body.enabled_at, now),
      // The real person, also when impersonating (ARCHITECTURE §6).
      createdBy: actor.auth.actor?.id ?? actor.auth.principal.id,
    };
    const row = await audited(
      db,
      (tx) => noticesRepository.insert(tx, values),
      (made) => auditEntry(actor, 'create', made, { type: made.type, enabled_at: made.enabledAt }),
    );
    return presentAdminNotice(row, now);
  },

  async update(db: Db, actor: Actor, id: number, body: NoticeUpdateBody) {
    const now = new Date();
    const before = await existing(db, id);
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
      db,
      (tx) => noticesRepository.update(tx, id, values),
      (done) =>
        done ? auditEntry(actor, 'update', done, { type: done.type, enabled_at: done.enabledAt }) : null,
    );
    if (!row) throw notFound('Notice');
    return presentAdminNotice(row, now);
  },

  async enable(db: Db, actor: Actor, id: number, at: string | undefined) {
    const now = new Date();
    await existing(db, id);
    const row = await audited(
      db,
      (tx) => noticesRepository.update(tx, id, { enabledAt: startTime(at ?? now.toISOString(), now) }),
      (done) => (done ? auditEntry(actor, 'enable', done, { enabled_at: done.enabledAt }) : null),
    );
    if (!row) throw notFound('Notice');
    return presentAdminNotice(row, now);
  },

  async disable(db: Db, actor: Actor, id: number) {
    await existing(db, id);
    const row = await audited(
      db,
      (tx) => noticesRepository.update(tx, id, { enabledAt: null }),
      (done) => (done ? auditEntry(actor, 'disable', done) : null),
    );
    if (!row) throw notFound('Notice');
    return presentAdminNotice(row, new Date());
  },

  async remove(db: Db, actor: Actor, id: number) {
    const row = await audited(
      db,
      (tx) => noticesRepository.remove(tx, id),
      (done) => (done ? auditEntry(actor, 'delete', done, { type: done.type }) : null),
    );
    if (!row) throw notFound('Notice');
    return { id: row.id };
  },
};
