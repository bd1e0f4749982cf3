DROP INDEX "ledger_accounts_owner_key";--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD COLUMN "device_id" integer;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD COLUMN "target_device_id" integer;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_owner_key" ON "ledger_accounts" USING btree ("kind",coalesce("company_id", 0),coalesce("code_id", 0),coalesce("device_id", 0),coalesce("resource_type_id", 0));