CREATE TABLE "sandbox_transfers" (
	"reference" text PRIMARY KEY NOT NULL,
	"account_number" text NOT NULL,
	"amount" bigint NOT NULL,
	"currency" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
