-- Trigram indexes for substring search on devices (ARCHITECTURE §6). pg_trgm is a trusted
-- extension from PostgreSQL 13 on, so the database owner may create it; PGlite loads it
-- as a module (db/database.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
