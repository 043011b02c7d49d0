CREATE TYPE "public"."withdrawal_status" AS ENUM('requested', 'processing', 'paid', 'failed');--> statement-breakpoint
CREATE TABLE "bank_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"business_id" uuid NOT NULL,
	"bank_code" text NOT NULL,
	"bank_name" text NOT NULL,
	"account_number" text NOT NULL,
	"account_name" text NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"recipient_code" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"removed_at" timestamp with time zone,
	CONSTRAINT "bank_accounts_nuban" CHECK ("bank_accounts"."account_number" ~ '^[0-9]{10}$')
);
--> statement-breakpoint
CREATE TABLE "transaction_pins" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"pin_hash" text NOT NULL,
	"failed_attempts" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "withdrawals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"business_id" uuid NOT NULL,
	"bank_account_id" uuid NOT NULL,
	"amount" bigint NOT NULL,
	"currency" text NOT NULL,
	"status" "withdrawal_status" DEFAULT 'requested' NOT NULL,
	"reference" text NOT NULL,
	"provider_transfer_code" text,
	"failure_reason" text,
	"idempotency_key" text,
	"request_fingerprint" text,
	"next_attempt_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "withdrawals_amount_positive" CHECK ("withdrawals"."amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "bank_accounts" ADD CONSTRAINT "bank_accounts_business_id_accounts_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transaction_pins" ADD CONSTRAINT "transaction_pins_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_business_id_accounts_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_bank_account_id_bank_accounts_id_fk" FOREIGN KEY ("bank_account_id") REFERENCES "public"."bank_accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bank_accounts_business_idx" ON "bank_accounts" USING btree ("business_id");--> statement-breakpoint
CREATE UNIQUE INDEX "bank_accounts_one_default" ON "bank_accounts" USING btree ("business_id") WHERE "bank_accounts"."is_default" AND "bank_accounts"."removed_at" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "bank_accounts_unique_live" ON "bank_accounts" USING btree ("business_id","bank_code","account_number") WHERE "bank_accounts"."removed_at" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "withdrawals_reference_unique" ON "withdrawals" USING btree ("reference");--> statement-breakpoint
CREATE UNIQUE INDEX "withdrawals_business_idempotency_unique" ON "withdrawals" USING btree ("business_id","idempotency_key") WHERE "withdrawals"."idempotency_key" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "withdrawals_business_idx" ON "withdrawals" USING btree ("business_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "withdrawals_due_idx" ON "withdrawals" USING btree ("next_attempt_at") WHERE "withdrawals"."status" IN ('requested', 'processing');