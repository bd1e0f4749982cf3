import type { MailStatus } from '@fleetgate/shared/schemas/mail';
import { count, eq, type SQL } from 'drizzle-orm';
import type { Db } from '#src/db/database';
import { allOf, type ListSpec, listPlan } from '#src/db/list-sql';
import { companies } from '#src/db/schema/companies';
import { mailLog, suppressedEmails } from '#src/db/schema/mail';
import type { ListQuery } from '#src/http/list-query';
import type { Scope } from '../policy/scope';
import { companyColumnInScope } from '../policy/scope.repository';

type MailField = 'id' | 'to' | 'subject' | 'template' | 'status' | 'created_at' | 'sent_at';

export const mailLogListSpec: ListSpec<MailField> = {
  columns: {
    id: mailLog.id,
    to: mailLog.to,
    subject: mailLog.subject,
    template: mailLog.template,
    status: mailLog.status,
    created_at: mailLog.createdAt,
    sent_at: mailLog.sentAt,
  },
  sortable: ['id', 'to', 'subject', 'template', 'status', 'created_at', 'sent_at'],
  searchable: ['to', 'subject', 'template'],
  defaultSearch: ['to', 'subject', 'template'],
  defaultSort: '-created_at',
  idColumn: mailLog.id,
};

const row = {
  id: mailLog.id,
  to: mailLog.to,
  subject: mailLog.subject,
  template: mailLog.template,
  status: mailLog.status,
  error: mailLog.error,
  company_id: mailLog.companyId,
  company_name: companies.name,
  created_at: mailLog.createdAt,
  sent_at: mailLog.sentAt,
};

/**
 * Which log rows a reader sees: a super admin every row (system messages carry no
 * company); anyone else granted view_mail_logs only the rows of companies in reach.
 */
function visible(scope: Scope, everything: boolean): SQL | undefined {
  return everything ? undefined : companyColumnInScope(mailLog.companyId, scope);
}

type SuppressedField = 'email' | 'reason' | 'created_at';
const suppressedListSpec: ListSpec<SuppressedField> = {
  columns: {
    email: suppressedEmails.email,
    reason: suppressedEmails.reason,
    created_at: suppressedEmails.createdAt,
  },
  sortable: ['email', 'created_at'],
  searchable: ['email', 'reason'],
  defaultSearch: ['email', 'reason'],
  defaultSort: '-created_at',
  idColumn: suppressedEmails.email,
};

/** The mail log and the suppression list: only this file touches them. */
export const mailRepository = {
  async insertLog(
    db: Db,
    values: {
      to: string;
      subject: string;
      template: string;
      text: string;
      html: string | null;
      status: MailStatus;
      error?: string | null;
      companyId: number | null;
      sentAt?: Date | null;
    },
  ): Promise<number> {
    const [created] = await db
      .insert(mailLog)
      .values({ ...values, error: values.error ?? null, sentAt: values.sentAt ?? null })
      .returning({ id: mailLog.id });
    return created!.id;
  },

  async finishLog(
    db: Db,
    id: number,
    result: { status: MailStatus; error: string | null; sentAt: Date | null },
  ) {
    await db.update(mailLog).set(result).where(eq(mailLog.id, id));
  },

  async list(
    db: Db,
    scope: Scope,
    everything: boolean,
    query: ListQuery,
    filters: { status?: MailStatus; companyId?: number },
  ) {
    const plan = listPlan(mailLogListSpec, query);
    const where = allOf(
      visible(scope, everything),
      plan.search,
      filters.status ? eq(mailLog.status, filters.status) : undefined,
      filters.companyId === undefined ? undefined : eq(mailLog.companyId, filters.companyId),
    );
    const [rows, [total]] = await Promise.all([
      db
        .select(row)
        .from(mailLog)
        .leftJoin(companies, eq(companies.id, mailLog.companyId))
        .where(where)
        .orderBy(...plan.orderBy)
        .limit(plan.limit)
        .offset(plan.offset),
      db.select({ n: count() }).from(mailLog).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  },

  async find(db: Db, id: number) {
    const [found] = await db
      .select({ ...row, text: mailLog.text, html: mailLog.html })
      .from(mailLog)
      .leftJoin(companies, eq(companies.id, mailLog.companyId))
      .where(eq(mailLog.id, id))
      .limit(1);
    return found;
  },

  async isSuppressed(db: Db, email: string): Promise<boolean> {
    const [found] = await db
      .select({ email: suppressedEmails.email })
      .from(suppressedEmails)
      .where(eq(suppressedEmails.email, email.toLowerCase()))
      .limit(1);
    return found !== undefined;
  },

  async listSuppressed(db: Db, query: ListQuery) {
    const plan = listPlan(suppressedListSpec, query);
    const where = allOf(plan.search);
    const [rows, [total]] = await Promise.all([
      db
        .select({
          email: suppressedEmails.email,
          reason: suppressedEmails.reason,
          created_at: suppressedEmails.createdAt,
        })
        .from(suppressedEmails)
        .where(where)
        .orderBy(...plan.orderBy)
        .limit(plan.limit)
        .offset(plan.offset),
      db.select({ n: count() }).from(suppressedEmails).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  },

  /** Adds an address; an address already on the list keeps its first reason. Returns true when added. */
  async suppress(db: Db, email: string, reason: string): Promise<boolean> {
    const added = await db
      .insert(suppressedEmails)
      .values({ email: email.toLowerCase(), reason })
      .onConflictDoNothing()
      .returning({ email: suppressedEmails.email });
    return added.length > 0;
  },

  async unsuppress(db: Db, email: string): Promise<boolean> {
    const removed = await db
      .delete(suppressedEmails)
      .where(eq(suppressedEmails.email, email.toLowerCase()))
      .returning({ email: suppressedEmails.email });
    return removed.length > 0;
  },
};
