CREATE TABLE "remote_share_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"entry_id" integer NOT NULL,
	"created_by" integer NOT NULL,
	"session_id" text NOT NULL,
	"key_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"uses" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "remote_share_links_key_hash_unique" UNIQUE("key_hash")
);
--> statement-breakpoint
ALTER TABLE "remote_sessions" ADD COLUMN "share_link_id" uuid;--> statement-breakpoint
ALTER TABLE "remote_share_links" ADD CONSTRAINT "remote_share_links_entry_id_remote_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."remote_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remote_share_links" ADD CONSTRAINT "remote_share_links_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "remote_share_links_entry_idx" ON "remote_share_links" USING btree ("entry_id");--> statement-breakpoint
ALTER TABLE "remote_sessions" ADD CONSTRAINT "remote_sessions_share_link_id_remote_share_links_id_fk" FOREIGN KEY ("share_link_id") REFERENCES "public"."remote_share_links"("id") ON DELETE set null ON UPDATE no action;