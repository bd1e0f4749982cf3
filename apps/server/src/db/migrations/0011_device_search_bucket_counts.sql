-- device_search_buckets follows device_search (schema/devices.ts deviceSearchBuckets): every
-- statement that adds, changes or removes search rows adds or subtracts them, per company,
-- in the stretch of the name order each row falls in: the one with the greatest start
-- (lo_name, lo_id) not after the row's (name, device_id). The counts are updated in the
-- statement's own transaction, so a reader always sees counts that match its snapshot.
-- Stretches whose count falls to 0 stay until the next rebalance; they cost nothing.
CREATE FUNCTION device_search_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    UPDATE device_search_buckets b SET n = b.n - d.n
      FROM (SELECT k.lo_name, k.lo_id, r.company_id, count(*)::int AS n
              FROM removed r CROSS JOIN LATERAL (
                SELECT x.lo_name, x.lo_id FROM device_search_buckets x
                 WHERE (x.lo_name, x.lo_id) <= (r.name, r.device_id)
                 ORDER BY x.lo_name DESC, x.lo_id DESC LIMIT 1) k
             GROUP BY 1, 2, 3) d
     WHERE b.lo_name = d.lo_name AND b.lo_id = d.lo_id AND b.company_id = d.company_id;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO device_search_buckets AS b (lo_name, lo_id, company_id, n)
    SELECT k.lo_name, k.lo_id, r.company_id, count(*)::int
      FROM added r CROSS JOIN LATERAL (
        SELECT x.lo_name, x.lo_id FROM device_search_buckets x
         WHERE (x.lo_name, x.lo_id) <= (r.name, r.device_id)
         ORDER BY x.lo_name DESC, x.lo_id DESC LIMIT 1) k
     GROUP BY 1, 2, 3
     ORDER BY 1, 2, 3
    ON CONFLICT (lo_name, lo_id, company_id) DO UPDATE SET n = b.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Statement-level, so a bulk insert (CSV import) counts its rows in one go. A trigger with
-- transition tables serves one event, hence three.
CREATE TRIGGER device_search_count_insert AFTER INSERT ON device_search
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION device_search_count();
--> statement-breakpoint
CREATE TRIGGER device_search_count_update AFTER UPDATE ON device_search
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION device_search_count();
--> statement-breakpoint
CREATE TRIGGER device_search_count_delete AFTER DELETE ON device_search
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION device_search_count();
--> statement-breakpoint
-- The first stretch, from before any name, and the rows already there, all in it until the
-- server's hourly maintenance redraws the stretches (devices.buckets.ts).
INSERT INTO device_search_buckets (lo_name, lo_id, company_id, n) VALUES ('', 0, 0, 0);
--> statement-breakpoint
INSERT INTO device_search_buckets (lo_name, lo_id, company_id, n)
SELECT '', 0, company_id, count(*)::int FROM device_search GROUP BY company_id;
