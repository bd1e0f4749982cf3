import type { Db } from '#src/db/database';
import { tokensRepository } from '../tokens/tokens.repository';
import { mfaRepository } from './mfa.repository';

/**
 * Takes a user's second step away completely: code-app secret, recovery codes, vendor ID
 * link, open challenges, the method itself, and the personal access tokens that needed it.
 * Used by the user's own removal and by the admin form removeUserMfa (product §3).
 * Answers how many tokens were revoked.
 */
export async function clearSecondStep(db: Db, userId: number, now = new Date()): Promise<number> {
  await mfaRepository.deleteTotp(db, userId);
  await mfaRepository.deleteChallenges(db, userId);
  await mfaRepository.unlinkAll(db, userId);
  await mfaRepository.setMethod(db, userId, null);
  return tokensRepository.revokeAll(db, userId, now);
}
