import type { Profile } from '@fleetgate/shared/schemas/account';
import type { accountRepository } from './account.repository';

type ProfileRow = NonNullable<Awaited<ReturnType<typeof accountRepository.profile>>>;

/** The user's profile in account settings: never the password's hash the row carries. */
export function presentProfile(row: ProfileRow): Profile {
  return {
    id: row.id,
    email: row.email,
    username: row.username,
    avatar_url: row.avatarUrl,
    country_iso_code: row.countryIsoCode,
    email_verified: row.emailVerifiedAt !== null,
  };
}
