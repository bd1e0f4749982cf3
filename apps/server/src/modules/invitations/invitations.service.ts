import {
  INVITATION_PATH,
  INVITATION_TTL_DAYS,
  type InvitationKind,
  type InvitationStatus,
} from '@fleetgate/shared/schemas/invitations';
import { hashPassword } from '#src/auth/passwords';
import { digest, newToken } from '#src/auth/tokens';
import { isUniqueViolation } from '#src/db/errors';
import { AppError, badRequest, conflict, forbidden, notFound } from '#src/http/errors';
import type { ListQuery } from '#src/http/list-query';
import { type AuditEntry, audited } from '../audit/audit.service';
import { companiesRepository } from '../companies/companies.repository';
import type { MailResult } from '../mail/mail.service';
import {
  distributorInvitationMail,
  invitationToExistingAccountMail,
  MAIL_TEMPLATES,
  userInvitationMail,
} from '../mail/mail.templates';
import { scopeOf } from '../policy/scope';
import { companyInScope } from '../policy/scope.repository';
import { callerAudit, type PublicContext, type ServiceContext, withParts } from '../service-context';
import { assignableRole } from '../users/role-assignment';
import { type InvitationRow, invitationsRepository as repo } from './invitations.repository';

const DAY_MS = 86_400_000;
/** The admin role a distributor becomes in the company they found (product §6 id 2). */
const ADMIN_ROLE_ID = 2;

/** One answer for unknown, used, revoked and expired links: a token holder learns nothing more. */
export const INVITATION_GONE = 'This invitation link is invalid, already used, revoked or expired';
const gone = () => AppError.of(404, 'NOT_FOUND', INVITATION_GONE);

const expiry = () => new Date(Date.now() + INVITATION_TTL_DAYS * DAY_MS);

const auditEntry = (ctx: ServiceContext, action: string, row: InvitationRow) =>
  callerAudit(ctx, {
    action,
    companyId: row.company_id,
    targetType: 'invitation',
    targetId: row.id,
    details: { email: row.email, kind: row.kind, role_id: row.role_id },
  });

/**
 * Sends the invitation; to an address that has an account elsewhere, a message saying so
 * instead of a link that could not be used. The inviter sees the same answer either way.
 */
async function deliver(
  ctx: ServiceContext,
  row: InvitationRow,
  token: string,
  existingAccount: boolean,
): Promise<MailResult> {
  const appName = await ctx.mail.appName();
  if (existingAccount) {
    return ctx.mail.send({
      to: row.email,
      template: MAIL_TEMPLATES.invitationToExistingAccount,
      companyId: row.company_id,
      ...invitationToExistingAccountMail({
        appName,
        inviter: ctx.caller.principal.email,
        companyName: row.company_name,
      }),
    });
  }
  const url = `${ctx.baseUrl}${INVITATION_PATH}/${token}`;
  const inviter = ctx.caller.principal.email;
  const expiresAt = new Date(row.expires_at);
  const message =
    row.kind === 'distributor'
      ? distributorInvitationMail({ appName, inviter, companyName: row.company_name, url, expiresAt })
      : userInvitationMail({
          appName,
          inviter,
          companyName: row.company_name,
          roleTitle: row.role_title ?? '',
          url,
          expiresAt,
        });
  return ctx.mail.send({
    to: row.email,
    template:
      row.kind === 'distributor' ? MAIL_TEMPLATES.distributorInvitation : MAIL_TEMPLATES.userInvitation,
    companyId: row.company_id,
    ...message,
  });
}

async function reachable(ctx: ServiceContext, id: number): Promise<InvitationRow> {
  const row = await repo.find(ctx.db, scopeOf(ctx.caller), id);
  if (!row) throw notFound('Invitation');
  return row;
}

/**
 * Whether the address already has an account. One in the caller's reach is refused (they
 * can see it); one elsewhere is not refused, so that the answer does not tell one tenant
 * who another has (docs/security.md, enumeration).
 */
async function existingAccount(ctx: ServiceContext, email: string): Promise<boolean> {
  const holder = await repo.emailHolder(ctx.db, scopeOf(ctx.caller), email);
  if (holder?.inScope) throw conflict('A user with this email already exists', 'email');
  return holder !== undefined;
}

async function create(
  ctx: ServiceContext,
  kind: InvitationKind,
  email: string,
  companyId: number,
  roleId: number,
) {
  const elsewhere = await existingAccount(ctx, email);
  if (await repo.pendingForEmail(ctx.db, scopeOf(ctx.caller), email))
    throw conflict('An invitation to this email is already pending. Resend it instead.', 'email');
  const token = newToken();
  const row = await audited(
    ctx.db,
    async (tx) => {
      const id = await repo.insert(tx, {
        kind,
        email,
        companyId,
        roleId,
        tokenHash: digest(token),
        invitedBy: ctx.caller.principal.id,
        expiresAt: expiry(),
      });
      return reachable(withParts(ctx, { db: tx }), id);
    },
    (made) => auditEntry(ctx, kind === 'distributor' ? 'distributor.invite' : 'invitation.create', made),
  );
  const mail = await deliver(ctx, row, token, elsewhere);
  return { invitation: row, mailStatus: mail.status };
}

/** Invitations (product §2 users.invitations, §3 newUser and inviteNewCompany). */
export const invitationsService = {
  list(
    ctx: ServiceContext,
    query: ListQuery,
    filters: { companyId?: number; status?: InvitationStatus; kind?: InvitationKind },
  ) {
    return repo.list(ctx.db, scopeOf(ctx.caller), query, filters);
  },

  /** newUser: a user of a company in reach, with a role the caller may give. */
  async invite(ctx: ServiceContext, input: { company_id: number; email: string; role: number }) {
    const company = await companyInScope(ctx.db, scopeOf(ctx.caller), input.company_id);
    if (!company) throw AppError.of(404, 'NOT_FOUND', 'Company not found', 'company_id');
    const role = await assignableRole(ctx, input.role, company.id);
    return create(ctx, 'user', input.email, company.id, role.id);
  },

  /** inviteNewCompany: the invitee founds a company under the caller's and becomes its admin. */
  async inviteDistributor(ctx: ServiceContext, input: { email: string }) {
    const companyId = ctx.caller.principal.company.id;
    await assignableRole(ctx, ADMIN_ROLE_ID, companyId, 'email');
    return create(ctx, 'distributor', input.email, companyId, ADMIN_ROLE_ID);
  },

  /** A new link (the old one dies) and a new expiry; the caller must still be allowed to give the role. */
  async resend(ctx: ServiceContext, id: number) {
    const row = await reachable(ctx, id);
    if (row.status === 'accepted') throw badRequest('This invitation was already accepted');
    if (row.status === 'revoked') throw badRequest('This invitation was revoked');
    if (row.kind === 'distributor' && !ctx.caller.principal.permissions.includes('manage_companies'))
      throw forbidden();
    await assignableRole(ctx, row.role_id ?? ADMIN_ROLE_ID, row.company_id);
    const elsewhere = await existingAccount(ctx, row.email);
    const token = newToken();
    const renewed = await audited(
      ctx.db,
      async (tx) => {
        if (!(await repo.renew(tx, id, digest(token), expiry())))
          throw badRequest('This invitation can no longer be resent');
        return reachable(withParts(ctx, { db: tx }), id);
      },
      (done) => auditEntry(ctx, 'invitation.resend', done),
    );
    const mail = await deliver(ctx, renewed, token, elsewhere);
    return { invitation: renewed, mailStatus: mail.status };
  },

  async revoke(ctx: ServiceContext, id: number) {
    const row = await reachable(ctx, id);
    if (row.status === 'accepted') throw badRequest('An accepted invitation cannot be revoked');
    if (row.status === 'revoked') throw badRequest('This invitation was already revoked');
    if (row.kind === 'distributor' && !ctx.caller.principal.permissions.includes('manage_companies'))
      throw forbidden();
    await audited(
      ctx.db,
      async (tx) => {
        if (!(await repo.revoke(tx, id))) throw badRequest('This invitation can no longer be revoked');
      },
      () => auditEntry(ctx, 'invitation.revoke', row),
    );
  },

  /** The invitation behind a link, for the accept page. */
  async preview(ctx: PublicContext, token: string) {
    const row = await repo.findUsableByToken(ctx.db, digest(token));
    if (!row) throw gone();
    return row;
  },

  /**
   * Accepts an invitation: the user (and, for a distributor, their company) is created
   * and the invitation marked accepted in one transaction whose first statement is the
   * conditional UPDATE, so that parallel acceptances create exactly one user.
   */
  async accept(
    ctx: PublicContext,
    token: string,
    input: { password: string; username?: string | undefined; company_name?: string | undefined },
  ) {
    const tokenHash = digest(token);
    const found = await repo.findUsableByToken(ctx.db, tokenHash);
    if (!found) throw gone();
    if (found.kind === 'user' && input.company_name !== undefined)
      throw badRequest('Only an invitation to create a company takes a company name', 'company_name');
    if (found.kind === 'distributor' && !input.company_name)
      throw badRequest('Company name is required', 'company_name');
    if (await repo.emailTaken(ctx.db, found.email)) throw conflict('A user with this email already exists');
    const passwordHash = await hashPassword(input.password);

    const done = await audited(
      ctx.db,
      async (tx) => {
        const claimed = await repo.claim(tx, tokenHash, new Date());
        if (!claimed) throw gone();
        if (await repo.emailTaken(tx, claimed.email)) throw conflict('A user with this email already exists');
        let companyId = claimed.companyId;
        let createdCompany: { id: number; name: string } | null = null;
        if (claimed.kind === 'distributor') {
          const name = input.company_name!;
          if (await repo.companyNameTaken(tx, claimed.companyId, name))
            throw conflict('A company with this name already exists', 'company_name');
          const company = await companiesRepository.insert(tx, { name, parentId: claimed.companyId });
          if (!company) throw gone();
          companyId = company.id;
          createdCompany = { id: company.id, name: company.name };
        }
        const userId = await repo.insertUser(tx, {
          email: claimed.email,
          username: input.username ?? claimed.email.split('@')[0]!,
          passwordHash,
          companyId,
          roleId: claimed.roleId ?? ADMIN_ROLE_ID,
        });
        await repo.setAcceptedUser(tx, claimed.id, userId);
        return { userId, companyId, createdCompany, invitationId: claimed.id, email: claimed.email };
      },
      (accepted): AuditEntry[] => {
        const actor = { actorUserId: accepted.userId, ip: ctx.address };
        return [
          ...(accepted.createdCompany
            ? [
                {
                  action: 'company.create',
                  ...actor,
                  companyId: accepted.createdCompany.id,
                  targetType: 'company',
                  targetId: accepted.createdCompany.id,
                  details: { name: accepted.createdCompany.name, via: 'distributor invitation' },
                },
              ]
            : []),
          {
            action: 'invitation.accept',
            ...actor,
            companyId: accepted.companyId,
            targetType: 'invitation',
            targetId: accepted.invitationId,
            details: { email: accepted.email, user_id: accepted.userId },
          },
        ];
      },
    ).catch((error: unknown) => {
      // Two invitations to one address accepted at once: the unique e-mail index decides.
      if (isUniqueViolation(error)) throw conflict('A user with this email already exists');
      throw error;
    });

    return { email: done.email, company_id: done.companyId };
  },
};
