import { and, eq, inArray, isNull, ne } from 'drizzle-orm';
import type { Db } from '#src/db/database';
import { companies } from '#src/db/schema/companies';
import { users } from '#src/db/schema/users';

export type ProfileChanges = {
  username?: string;
  avatarUrl?: string | null;
  countryIsoCode?: string | null;
};

/** The signed-in user's own record: profile, password, terms, e-mail confirmation. */
export const accountRepository = {
  /** Whether the user's company requires a second step (product §6 MFA_MANDATORY). */
  async mfaMandatoryFor(db: Db, companyId: number): Promise<boolean> {
    const [row] = await db
      .select({ mandatory: companies.mfaMandatory })
      .from(companies)
      .where(eq(companies.id, companyId))
      .limit(1);
    return row?.mandatory ?? false;
  },

  async profile(db: Db, userId: number) {
    const [row] = await db
      .select({
        id: users.id,
        email: users.email,
        username: users.username,
        avatarUrl: users.avatarUrl,
        countryIsoCode: users.countryIsoCode,
        emailVerifiedAt: users.emailVerifiedAt,
        passwordHash: users.passwordHash,
      })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1);
    return row;
  },

  /** E-mail addresses by user id (the support people named in the sessions list). */
  async emailsOf(db: Db, ids: number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows = await db
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(inArray(users.id, ids));
    return new Map(rows.map((r) => [r.id, r.email]));
  },

  async updateProfile(db: Db, userId: number, changes: ProfileChanges): Promise<void> {
    await db
      .update(users)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(users.id, userId));
  },

  async setPassword(db: Db, userId: number, passwordHash: string, now: Date): Promise<void> {
    await db
      .update(users)
      .set({ passwordHash, passwordChangedAt: now, updatedAt: now })
      .where(eq(users.id, userId));
  },

  async setTos(db: Db, userId: number, acceptedAt: Date | null): Promise<void> {
    await db
      .update(users)
      .set({ tosAcceptedAt: acceptedAt, updatedAt: new Date() })
      .where(eq(users.id, userId));
  },

  /** Another user holds this address already. */
  async emailTaken(db: Db, email: string, exceptUserId: number): Promise<boolean> {
    const [row] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.email, email), ne(users.id, exceptUserId)))
      .limit(1);
    return row !== undefined;
  },

  /** A new address is unconfirmed until its link is opened. */
  async setContact(
    db: Db,
    userId: number,
    email: string,
    username: string,
    emailChanged: boolean,
  ): Promise<void> {
    await db
      .update(users)
      .set({
        email,
        username,
        ...(emailChanged ? { emailVerifiedAt: null } : {}),
        updatedAt: new Date(),
      })
      .where(eq(users.id, userId));
  },

  /** Confirms the address, only if it is still the one the link was made for. */
  async verifyEmail(db: Db, userId: number, email: string, now: Date): Promise<boolean> {
    const rows = await db
      .update(users)
      .set({ emailVerifiedAt: now, updatedAt: now })
      .where(and(eq(users.id, userId), eq(users.email, email), isNull(users.emailVerifiedAt)))
      .returning({ id: users.id });
    return rows.length > 0;
  },
};
