CREATE TABLE "data_usage" (
	"company_id" integer NOT NULL,
	"device_id" integer DEFAULT 0 NOT NULL,
	"day" date NOT NULL,
	"purpose" text NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	"unpaid_bytes" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "data_usage_company_id_day_device_id_purpose_pk" PRIMARY KEY("company_id","day","device_id","purpose")
);
--> statement-breakpoint
CREATE INDEX "data_usage_device_idx" ON "data_usage" USING btree ("device_id","day");