import type { ApiToken } from '@fleetgate/shared/schemas/tokens';
import { iso } from '../account/links';
import type { ApiTokenRow } from './tokens.repository';

/** A personal access token as its owner sees it: never the secret, which is shown once at creation. */
export function presentToken(row: ApiTokenRow): ApiToken {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    created_at: iso(row.createdAt)!,
    last_used_at: iso(row.lastUsedAt),
    expires_at: iso(row.expiresAt),
  };
}
