-- device_telemetry has no foreign key to devices (0008: its check per point cost a fifth of
-- writing one); this trigger does what ON DELETE CASCADE did, once per statement, so
-- unregistering a device, or deleting its company, still removes its points. A point
-- written after its device was removed (the writer raced the removal) is left to the
-- retention job: device ids are never reused.
CREATE FUNCTION device_telemetry_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM device_telemetry WHERE device_id IN (SELECT id FROM removed);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER devices_telemetry_delete AFTER DELETE ON devices
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION device_telemetry_delete();
--> statement-breakpoint
-- Points of devices removed while the foreign key was being dropped.
DELETE FROM device_telemetry t WHERE NOT EXISTS (SELECT 1 FROM devices d WHERE d.id = t.device_id);
