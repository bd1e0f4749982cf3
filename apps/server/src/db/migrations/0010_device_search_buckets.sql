CREATE TABLE "device_search_buckets" (
	"lo_name" text NOT NULL,
	"lo_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "device_search_buckets_lo_name_lo_id_company_id_pk" PRIMARY KEY("lo_name","lo_id","company_id")
);
