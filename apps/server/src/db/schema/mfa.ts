import { index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users';

const tz = (name: string) => timestamp(name, { withTimezone: true });

/** TOTP enrolment (product §1 time-based code app); secrets encrypted at rest. */
export const userTotp = pgTable('user_totp', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secretEncrypted: text('secret_encrypted').notNull(),
  confirmedAt: tz('confirmed_at'),
  /** Last accepted time step: a code is single use. */
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
 * A second-step challenge (product §4 MFA_REQUIRED, §3 session_id/session_uuid): codes
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
