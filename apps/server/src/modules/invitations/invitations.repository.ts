import type { InvitationKind, InvitationStatus } from '@fleetgate/shared/schemas/invitations';
import { and, count, eq, gt, isNull, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '#src/db/database';
import { allOf, type ListSpec, listPlan } from '#src/db/list-sql';
import { companies } from '#src/db/schema/companies';
import { invitations } from '#src/db/schema/invitations';
import { roles } from '#src/db/schema/roles';
import { users } from '#src/db/schema/users';
import type { ListQuery } from '#src/http/list-query';
import type { Scope } from '../policy/scope';
import { companyColumnInScope } from '../policy/scope.repository';

const inviter = alias(users, 'inviter');

/** pending | accepted | expired | revoked, decided by the database clock. */
const statusSql = sql<InvitationStatus>`case
  when ${invitations.acceptedAt} is not null then 'accepted'
  when ${invitations.revokedAt} is not null then 'revoked'
  when ${invitations.expiresAt} <= now() then 'expired'
  else 'pending' end`;

/** Still usable: not accepted, not revoked, not expired. */
const usable = () =>
  and(isNull(invitations.acceptedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, sql`now()`));

type InvitationField = 'id' | 'email' | 'created_at' | 'expires_at' | 'last_sent_at';

const listSpec: ListSpec<InvitationField> = {
  columns: {
    id: invitations.id,
    email: invitations.email,
    created_at: invitations.createdAt,
    expires_at: invitations.expiresAt,
    last_sent_at: invitations.lastSentAt,
  },
  sortable: ['id', 'email', 'created_at', 'expires_at', 'last_sent_at'],
  searchable: ['email'],
  defaultSearch: ['email'],
  defaultSort: '-created_at',
  idColumn: invitations.id,
};

const row = {
  id: invitations.id,
  kind: invitations.kind,
  email: invitations.email,
  company_id: invitations.companyId,
  company_name: companies.name,
  role_id: invitations.roleId,
  role_title: roles.title,
  status: statusSql,
  invited_by: inviter.email,
  created_at: invitations.createdAt,
  expires_at: invitations.expiresAt,
  last_sent_at: invitations.lastSentAt,
  send_count: invitations.sendCount,
  accepted_at: invitations.acceptedAt,
  revoked_at: invitations.revokedAt,
};

export type InvitationRow = Awaited<ReturnType<typeof invitationsRepository.find>> & {};

function joined(db: Db, where: SQL | undefined) {
  return db
    .select(row)
    .from(invitations)
    .innerJoin(companies, eq(companies.id, invitations.companyId))
    .leftJoin(roles, eq(roles.id, invitations.roleId))
    .leftJoin(inviter, eq(inviter.id, invitations.invitedBy))
    .where(where);
}

/** Invitations (product §2 users.invitations): only this file reads and writes them. */
export const invitationsRepository = {
  async insert(
    db: Db,
    values: {
      kind: InvitationKind;
      email: string;
      companyId: number;
      roleId: number;
      tokenHash: string;
      invitedBy: number;
      expiresAt: Date;
    },
  ): Promise<number> {
    const [created] = await db.insert(invitations).values(values).returning({ id: invitations.id });
    return created!.id;
  },

  async list(
    db: Db,
    scope: Scope,
    query: ListQuery,
    filters: { companyId?: number; status?: InvitationStatus; kind?: InvitationKind },
  ) {
    const plan = listPlan(listSpec, query);
    const where = allOf(
      companyColumnInScope(invitations.companyId, scope),
      plan.search,
      filters.companyId === undefined ? undefined : eq(invitations.companyId, filters.companyId),
      filters.status ? sql`${statusSql} = ${filters.status}` : undefined,
      filters.kind ? eq(invitations.kind, filters.kind) : undefined,
    );
    const [rows, [total]] = await Promise.all([
      joined(db, where)
        .orderBy(...plan.orderBy)
        .limit(plan.limit)
        .offset(plan.offset),
      db.select({ n: count() }).from(invitations).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  },

  async find(db: Db, scope: Scope, id: number) {
    const [found] = await joined(
      db,
      and(eq(invitations.id, id), companyColumnInScope(invitations.companyId, scope)),
    ).limit(1);
    return found;
  },

  /** A usable invitation by its token digest (the accept page); used, expired or revoked ones are not found. */
  async findUsableByToken(db: Db, tokenHash: string) {
    const [found] = await joined(db, and(eq(invitations.tokenHash, tokenHash), usable())).limit(1);
    return found;
  },

  /** A usable invitation to `email` from a company in `scope` (others are not the caller's to know). */
  async pendingForEmail(db: Db, scope: Scope, email: string) {
    const [found] = await db
      .select({ id: invitations.id })
      .from(invitations)
      .where(and(eq(invitations.email, email), usable(), companyColumnInScope(invitations.companyId, scope)))
      .limit(1);
    return found;
  },

  /**
   * Takes the invitation for acceptance in ONE conditional UPDATE: of any number of
   * parallel acceptances exactly one sees a row (the others find it accepted).
   */
  async claim(db: Db, tokenHash: string, now: Date) {
    const [claimed] = await db
      .update(invitations)
      .set({ acceptedAt: now })
      .where(and(eq(invitations.tokenHash, tokenHash), usable()))
      .returning();
    return claimed;
  },

  async setAcceptedUser(db: Db, id: number, userId: number): Promise<void> {
    await db.update(invitations).set({ acceptedUserId: userId }).where(eq(invitations.id, id));
  },

  /** A new token and a new expiry; the old link dies. Accepted or revoked invitations are left alone. */
  async renew(db: Db, id: number, tokenHash: string, expiresAt: Date): Promise<boolean> {
    const renewed = await db
      .update(invitations)
      .set({ tokenHash, expiresAt, lastSentAt: new Date(), sendCount: sql`${invitations.sendCount} + 1` })
      .where(and(eq(invitations.id, id), isNull(invitations.acceptedAt), isNull(invitations.revokedAt)))
      .returning({ id: invitations.id });
    return renewed.length > 0;
  },

  async revoke(db: Db, id: number): Promise<boolean> {
    const revoked = await db
      .update(invitations)
      .set({ revokedAt: new Date() })
      .where(and(eq(invitations.id, id), isNull(invitations.acceptedAt), isNull(invitations.revokedAt)))
      .returning({ id: invitations.id });
    return revoked.length > 0;
  },

  /** Whether `email` has an account, and whether its company is in `scope`. */
  async emailHolder(db: Db, scope: Scope, email: string): Promise<{ inScope: boolean } | undefined> {
    const [found] = await db
      .select({ inScope: sql<boolean>`${companyColumnInScope(users.companyId, scope)}` })
      .from(users)
      .where(eq(users.email, email))
      .limit(1);
    return found;
  },

  async emailTaken(db: Db, email: string): Promise<boolean> {
    const [found] = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
    return found !== undefined;
  },

  async companyNameTaken(db: Db, parentId: number, name: string): Promise<boolean> {
    const [found] = await db
      .select({ id: companies.id })
      .from(companies)
      .where(and(eq(companies.parentId, parentId), sql`lower(${companies.name}) = lower(${name})`))
      .limit(1);
    return found !== undefined;
  },

  async insertUser(
    db: Db,
    values: { email: string; username: string; passwordHash: string; companyId: number; roleId: number },
  ): Promise<number> {
    const now = new Date();
    const [created] = await db
      .insert(users)
      .values({ ...values, emailVerifiedAt: now, passwordChangedAt: now })
      .returning({ id: users.id });
    return created!.id;
  },
};
