CREATE TABLE "resource_quotas" (
	"company_id" integer NOT NULL,
	"resource_type_id" integer NOT NULL,
	"cap" bigint NOT NULL,
	"moved" bigint DEFAULT 0 NOT NULL,
	"set_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "resource_quotas_company_id_resource_type_id_pk" PRIMARY KEY("company_id","resource_type_id"),
	CONSTRAINT "resource_quotas_moved_check" CHECK ("resource_quotas"."moved" <= "resource_quotas"."cap")
);
--> statement-breakpoint
ALTER TABLE "resource_quotas" ADD CONSTRAINT "resource_quotas_resource_type_id_resource_types_id_fk" FOREIGN KEY ("resource_type_id") REFERENCES "public"."resource_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resource_quotas" ADD CONSTRAINT "resource_quotas_set_by_users_id_fk" FOREIGN KEY ("set_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;