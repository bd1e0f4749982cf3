ALTER TABLE "device_telemetry" ADD COLUMN "rsrp" real;--> statement-breakpoint
ALTER TABLE "device_telemetry" ADD COLUMN "rsrq" real;--> statement-breakpoint
ALTER TABLE "device_telemetry" ADD COLUMN "sinr" real;--> statement-breakpoint
ALTER TABLE "device_telemetry" ADD COLUMN "ain" real;--> statement-breakpoint
ALTER TABLE "device_telemetry" ADD COLUMN "acl" real;--> statement-breakpoint
ALTER TABLE "device_telemetry" ADD COLUMN "speed" real;--> statement-breakpoint
ALTER TABLE "device_telemetry" ADD COLUMN "alt" real;--> statement-breakpoint
ALTER TABLE "device_telemetry" ADD COLUMN "satellites" smallint;--> statement-breakpoint
-- The series the charts drew from the stored message, kept as columns before the message
-- goes (0013). Numbers only, as the charts read them.
UPDATE "device_telemetry" SET
  "rsrp" = CASE WHEN json_typeof("payload"->'rsrp') = 'number' THEN ("payload"->>'rsrp')::real END,
  "rsrq" = CASE WHEN json_typeof("payload"->'rsrq') = 'number' THEN ("payload"->>'rsrq')::real END,
  "sinr" = CASE WHEN json_typeof("payload"->'sinr') = 'number' THEN ("payload"->>'sinr')::real END,
  "ain" = CASE WHEN json_typeof("payload"->'io'->'ain'->0) = 'number' THEN ("payload"->'io'->'ain'->>0)::real END,
  "acl" = CASE WHEN json_typeof("payload"->'io'->'acl'->0) = 'number' THEN ("payload"->'io'->'acl'->>0)::real END,
  "speed" = CASE WHEN json_typeof("payload"->'gps'->'speed') = 'number' THEN ("payload"->'gps'->>'speed')::real END,
  "alt" = CASE WHEN json_typeof("payload"->'gps'->'alt') = 'number' THEN ("payload"->'gps'->>'alt')::real END,
  "satellites" = CASE WHEN json_typeof("payload"->'gps'->'satellites') = 'number'
    THEN round(("payload"->'gps'->>'satellites')::float8)::smallint END;
