import { sql } from 'drizzle-orm';
import type { Db } from './database';

/** Whether the database answers (the readiness probe). */
export async function databaseAnswers(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}

/** Refreshes the planner's statistics and reclaims space (PGlite has no autovacuum). */
export async function vacuumAnalyze(db: Db): Promise<void> {
  await db.execute(sql`vacuum analyze`);
}
