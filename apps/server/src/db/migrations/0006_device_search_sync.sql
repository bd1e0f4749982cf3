-- device_search follows devices (schema/devices.ts deviceSearch): a row per device, written
-- by these triggers whatever writes the device (API, first contact, CSV import, SQL), and
-- removed with it by the foreign key's cascade. Telemetry's updates of status and
-- last_seen_at do not fire them, so the search rows stay all-visible for index-only walks.
-- The text is what the devices list searches: name, serial, MAC and IMEI in lower case,
-- joined by tabs; a pattern without a tab cannot match across two of them, so
-- `text like lower(pattern)` finds what `name ilike pattern or serial ilike pattern ...`
-- finds (PostgreSQL's ilike compares lower-cased text in UTF-8 databases).
CREATE FUNCTION device_search_text(name text, serial text, mac text, imei text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT lower(name || chr(9) || serial || chr(9) || mac || chr(9) || coalesce(imei, '')) $$;
--> statement-breakpoint
CREATE FUNCTION device_search_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO device_search (device_id, company_id, name, text)
  SELECT id, company_id, name, device_search_text(name, serial, mac, imei) FROM added;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION device_search_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE device_search
     SET company_id = NEW.company_id,
         name = NEW.name,
         text = device_search_text(NEW.name, NEW.serial, NEW.mac, NEW.imei)
   WHERE device_id = NEW.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- One statement-level trigger for inserts, so a bulk insert writes its search rows in one go.
CREATE TRIGGER devices_search_insert AFTER INSERT ON devices
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION device_search_insert();
--> statement-breakpoint
CREATE TRIGGER devices_search_update AFTER UPDATE OF company_id, name, serial, mac, imei ON devices
  FOR EACH ROW
  WHEN (OLD.company_id IS DISTINCT FROM NEW.company_id OR OLD.name IS DISTINCT FROM NEW.name
        OR OLD.serial IS DISTINCT FROM NEW.serial OR OLD.mac IS DISTINCT FROM NEW.mac
        OR OLD.imei IS DISTINCT FROM NEW.imei)
  EXECUTE FUNCTION device_search_update();
--> statement-breakpoint
INSERT INTO device_search (device_id, company_id, name, text)
SELECT id, company_id, name, device_search_text(name, serial, mac, imei) FROM devices;
