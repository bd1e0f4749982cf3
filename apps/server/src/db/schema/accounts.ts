import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { companies } from './companies';
import { devices } from './devices';
import { roles } from './roles';
import { users } from './users';

const tz = (name: string) => timestamp(name, { withTimezone: true });

/**
 * Invitations (spec §3 newUser, inviteNewCompany): a single-use, expiring link. A user
 * invitation names company and role; a distributor invitation lets the invitee found a
 * new company under the inviter's and become its admin.
 */
export const invitations = pgTable(
  'invitations',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    kind: text('kind').$type<'user' | 'distributor'>().notNull(),
    email: text('email').notNull(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    roleId: integer('role_id').references(() => roles.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    invitedBy: integer('invited_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: tz('created_at').notNull().defaultNow(),
    expiresAt: tz('expires_at').notNull(),
    lastSentAt: tz('last_sent_at').notNull().defaultNow(),
    sendCount: integer('send_count').notNull().default(1),
    acceptedAt: tz('accepted_at'),
    acceptedUserId: integer('accepted_user_id').references(() => users.id, { onDelete: 'set null' }),
    revokedAt: tz('revoked_at'),
  },
  (t) => [
    uniqueIndex('invitations_token_key').on(t.tokenHash),
    index('invitations_company_idx').on(t.companyId),
    index('invitations_email_idx').on(t.email),
  ],
);

/** Users moved between companies (spec §2 users.move-logs). */
export const userMoveLogs = pgTable(
  'user_move_logs',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    userEmail: text('user_email').notNull(),
    fromCompanyId: integer('from_company_id').references(() => companies.id, { onDelete: 'set null' }),
    toCompanyId: integer('to_company_id').references(() => companies.id, { onDelete: 'set null' }),
    movedBy: integer('moved_by').references(() => users.id, { onDelete: 'set null' }),
    movedAt: tz('moved_at').notNull().defaultNow(),
  },
  (t) => [
    index('user_move_logs_to_idx').on(t.toCompanyId),
    index('user_move_logs_from_idx').on(t.fromCompanyId),
  ],
);

/**
 * Impersonation access a user grants until a date (spec §3 impersonation_access_limit,
 * §4). An admin may also ask for it: the request's token is e-mailed to the user, who
 * confirms on impersonation.access (/users/confirm-impersonation-access/{token}).
 */
export const impersonationGrants = pgTable(
  'impersonation_grants',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    requestedBy: integer('requested_by').references(() => users.id, { onDelete: 'set null' }),
    requestTokenHash: text('request_token_hash'),
    requestExpiresAt: tz('request_expires_at'),
    grantedUntil: tz('granted_until'),
    createdAt: tz('created_at').notNull().defaultNow(),
    confirmedAt: tz('confirmed_at'),
    revokedAt: tz('revoked_at'),
  },
  (t) => [
    index('impersonation_grants_user_idx').on(t.userId),
    uniqueIndex('impersonation_grants_token_key').on(t.requestTokenHash),
  ],
);

/** Impersonation sessions (spec §2 users.impersonation-logs): actor, subject, start, end. */
export const impersonationLogs = pgTable(
  'impersonation_logs',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    actorUserId: integer('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    actorEmail: text('actor_email').notNull(),
    subjectUserId: integer('subject_user_id').references(() => users.id, { onDelete: 'set null' }),
    subjectEmail: text('subject_email').notNull(),
    subjectCompanyId: integer('subject_company_id').references(() => companies.id, { onDelete: 'set null' }),
    sessionId: text('session_id'),
    startedAt: tz('started_at').notNull().defaultNow(),
    endedAt: tz('ended_at'),
  },
  (t) => [index('impersonation_logs_subject_company_idx').on(t.subjectCompanyId, t.startedAt)],
);

/** TOTP enrolment (spec §1 time-based code app); secrets encrypted at rest. */
export const userTotp = pgTable('user_totp', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secretEncrypted: text('secret_encrypted').notNull(),
  confirmedAt: tz('confirmed_at'),
  /** Last accepted time step: a code is single use (issue 4). */
  lastUsedStep: integer('last_used_step'),
  createdAt: tz('created_at').notNull().defaultNow(),
});

/** One-time recovery codes for a user with TOTP, stored hashed. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: tz('used_at'),
  },
  (t) => [index('recovery_codes_user_idx').on(t.userId)],
);

/**
 * A second-step challenge (spec §4 MFA_REQUIRED, §3 session_id/session_uuid): codes
 * expire in 10 minutes, are single use, hashed, and attempts are limited.
 */
export const mfaChallenges = pgTable(
  'mfa_challenges',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').notNull(),
    method: text('method').notNull(),
    codeHash: text('code_hash'),
    /** OpenID Connect: the state and nonce of the authorisation request. */
    oidcState: text('oidc_state'),
    oidcNonce: text('oidc_nonce'),
    attempts: integer('attempts').notNull().default(0),
    createdAt: tz('created_at').notNull().defaultNow(),
    expiresAt: tz('expires_at').notNull(),
    usedAt: tz('used_at'),
  },
  (t) => [
    index('mfa_challenges_user_idx').on(t.userId),
    uniqueIndex('mfa_challenges_state_key').on(t.oidcState),
  ],
);

/** A user's link to the vendor identity service (OpenID Connect subject). */
export const userIdentities = pgTable(
  'user_identities',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    createdAt: tz('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.issuer, t.subject] }), index('user_identities_user_idx').on(t.userId)],
);

/**
 * Personal access tokens (issue 4): shown once, stored hashed, with scopes such as
 * `devices:read`; usable as `Authorization: Bearer`.
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull(),
    /** The first characters, to recognise a token in the list. */
    prefix: text('prefix').notNull(),
    scopes: text('scopes').array().notNull().default(sql`'{}'::text[]`),
    createdAt: tz('created_at').notNull().defaultNow(),
    lastUsedAt: tz('last_used_at'),
    expiresAt: tz('expires_at'),
    revokedAt: tz('revoked_at'),
  },
  (t) => [uniqueIndex('api_tokens_hash_key').on(t.tokenHash), index('api_tokens_user_idx').on(t.userId)],
);

/** Tags of a company (spec §3 Tag: company_id, name, description, color). */
export const tags = pgTable(
  'tags',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    color: text('color').notNull().default('#228be6'),
    createdAt: tz('created_at').notNull().defaultNow(),
    updatedAt: tz('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('tags_company_name_key').on(t.companyId, sql`lower(${t.name})`)],
);

/** Every message the system sends (spec §2 mail.logs), sent or not. */
export const mailLog = pgTable(
  'mail_log',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    template: text('template').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    status: text('status').$type<'sent' | 'unsent' | 'failed' | 'suppressed'>().notNull(),
    error: text('error'),
    companyId: integer('company_id').references(() => companies.id, { onDelete: 'set null' }),
    createdAt: tz('created_at').notNull().defaultNow(),
    sentAt: tz('sent_at'),
  },
  (t) => [index('mail_log_created_idx').on(sql`${t.createdAt} desc`), index('mail_log_to_idx').on(t.to)],
);

/** Addresses that bounced or complained: nothing is sent to them (spec §3 removeFromSuppresionList). */
export const suppressedEmails = pgTable('suppressed_emails', {
  email: text('email').primaryKey(),
  reason: text('reason').notNull(),
  createdAt: tz('created_at').notNull().defaultNow(),
});

/** Tags on devices. */
export const deviceTags = pgTable(
  'device_tags',
  {
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    tagId: integer('tag_id')
      .notNull()
      .references(() => tags.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.tagId] }), index('device_tags_tag_idx').on(t.tagId)],
);
