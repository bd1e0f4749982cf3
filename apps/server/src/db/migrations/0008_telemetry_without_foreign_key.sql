ALTER TABLE "device_telemetry" DROP CONSTRAINT "device_telemetry_device_id_devices_id_fk";
