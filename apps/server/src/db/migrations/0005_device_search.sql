CREATE TABLE "device_search" (
	"device_id" integer PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" text NOT NULL,
	"text" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_search" ADD CONSTRAINT "device_search_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_search_walk_idx" ON "device_search" USING btree ("name","device_id","company_id","text");