import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { companies } from './companies';
import { roles } from './roles';

export const users = pgTable(
  'users',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    /** Always stored lower-cased. */
    email: text('email').notNull(),
    username: text('username').notNull(),
    /** argon2id; null until an invited user sets a password. */
    passwordHash: text('password_hash'),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    roleId: integer('role_id')
      .notNull()
      .references(() => roles.id),
    avatarUrl: text('avatar_url'),
    mfaType: text('mfa_type'),
    countryIsoCode: text('country_iso_code'),
    tosAcceptedAt: timestamp('tos_accepted_at', { withTimezone: true }),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    /** Administers the vendor identity service sign-in for the company (product §3 makeSSOAdmin). */
    ssoAdmin: boolean('sso_admin').notNull().default(false),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_key').on(t.email), index('users_company_idx').on(t.companyId)],
);
