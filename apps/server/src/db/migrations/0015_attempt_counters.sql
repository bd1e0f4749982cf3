CREATE TABLE "attempt_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"window_started_at" timestamp with time zone NOT NULL,
	"attempts" integer NOT NULL,
	"notified_at" timestamp with time zone,
	"unlock_token_hash" text
);
