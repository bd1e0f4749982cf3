import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * A session is one sign-in: a refresh-token family. The access token and the XSRF token
 * are replaced at every refresh; tokens are stored as SHA-256 digests only.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The real person behind an impersonation session (product §6); null otherwise. */
    actorUserId: integer('actor_user_id').references(() => users.id, { onDelete: 'cascade' }),
    accessTokenHash: text('access_token_hash').notNull(),
    accessExpiresAt: timestamp('access_expires_at', { withTimezone: true }).notNull(),
    xsrfToken: text('xsrf_token').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Last time the real person typed their password (product §7 /password-confirmation). */
    passwordConfirmedAt: timestamp('password_confirmed_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedReason: text('revoked_reason'),
    userAgent: text('user_agent'),
    ip: text('ip'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('sessions_access_token_key').on(t.accessTokenHash),
    index('sessions_user_idx').on(t.userId),
  ],
);

/** Every refresh token ever issued to a family; a used one presented again revokes the family. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('refresh_tokens_session_idx').on(t.sessionId)],
);

/**
 * Attempt counters of the guessing limits (docs/security.md): one row per key, such as
 * the password confirmations of a user or the sign-ins of an e-mail address, counting
 * attempts in a window that restarts once it is over. An attempt is taken before the
 * secret is checked, in one statement, so requests sent at once cannot slip past.
 */
export const attemptCounters = pgTable('attempt_counters', {
  key: text('key').primaryKey(),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull(),
  attempts: integer('attempts').notNull(),
  /** When the account's owner was told of the lock in this window (sign-ins only). */
  notifiedAt: timestamp('notified_at', { withTimezone: true }),
  /** Digest of the single-use link mailed to the owner that signs in past the lock. */
  unlockTokenHash: text('unlock_token_hash'),
});
