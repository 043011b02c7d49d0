CREATE TYPE "public"."card_activity_kind" AS ENUM('issue', 'redeem', 'refund', 'adjust', 'void', 'transfer');--> statement-breakpoint
CREATE TYPE "public"."order_status" AS ENUM('pending', 'paid', 'failed');--> statement-breakpoint
CREATE TYPE "public"."purchased_card_status" AS ENUM('active', 'redeemed', 'expired', 'void');--> statement-breakpoint
CREATE TABLE "card_activities" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"purchased_card_id" uuid NOT NULL,
	"kind" "card_activity_kind" NOT NULL,
	"amount" bigint NOT NULL,
	"balance_after" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"link" text,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reference" text NOT NULL,
	"buyer_id" uuid NOT NULL,
	"gift_card_id" uuid NOT NULL,
	"business_id" uuid NOT NULL,
	"amount" bigint NOT NULL,
	"currency" text NOT NULL,
	"status" "order_status" DEFAULT 'pending' NOT NULL,
	"provider" text NOT NULL,
	"checkout_url" text,
	"failure_reason" text,
	"idempotency_key" text,
	"request_fingerprint" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	CONSTRAINT "orders_amount_positive" CHECK ("orders"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "purchased_cards" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"gift_card_id" uuid NOT NULL,
	"business_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"initial_value" bigint NOT NULL,
	"balance" bigint NOT NULL,
	"currency" text NOT NULL,
	"status" "purchased_card_status" DEFAULT 'active' NOT NULL,
	"expires_at" timestamp with time zone,
	"code_hash" text NOT NULL,
	"code_ciphertext" text NOT NULL,
	"code_last4" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "purchased_cards_balance_range" CHECK ("purchased_cards"."balance" >= 0 AND "purchased_cards"."balance" <= "purchased_cards"."initial_value")
);
--> statement-breakpoint
CREATE TABLE "sandbox_payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reference" text NOT NULL,
	"amount" bigint NOT NULL,
	"currency" text NOT NULL,
	"description" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"decline_reason" text,
	"card_last4" text,
	"return_url" text NOT NULL,
	"webhook_attempts" integer DEFAULT 0 NOT NULL,
	"webhook_next_at" timestamp with time zone,
	"webhook_delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "card_activities" ADD CONSTRAINT "card_activities_purchased_card_id_purchased_cards_id_fk" FOREIGN KEY ("purchased_card_id") REFERENCES "public"."purchased_cards"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_buyer_id_accounts_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_gift_card_id_gift_cards_id_fk" FOREIGN KEY ("gift_card_id") REFERENCES "public"."gift_cards"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_business_id_accounts_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchased_cards" ADD CONSTRAINT "purchased_cards_owner_id_accounts_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchased_cards" ADD CONSTRAINT "purchased_cards_gift_card_id_gift_cards_id_fk" FOREIGN KEY ("gift_card_id") REFERENCES "public"."gift_cards"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchased_cards" ADD CONSTRAINT "purchased_cards_business_id_accounts_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchased_cards" ADD CONSTRAINT "purchased_cards_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "card_activities_card_idx" ON "card_activities" USING btree ("purchased_card_id","created_at");--> statement-breakpoint
CREATE INDEX "notifications_account_idx" ON "notifications" USING btree ("account_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "orders_reference_unique" ON "orders" USING btree ("reference");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_buyer_idempotency_unique" ON "orders" USING btree ("buyer_id","idempotency_key") WHERE "orders"."idempotency_key" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "orders_buyer_idx" ON "orders" USING btree ("buyer_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "purchased_cards_order_unique" ON "purchased_cards" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "purchased_cards_code_hash_unique" ON "purchased_cards" USING btree ("code_hash");--> statement-breakpoint
CREATE INDEX "purchased_cards_owner_idx" ON "purchased_cards" USING btree ("owner_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_payments_reference_unique" ON "sandbox_payments" USING btree ("reference");--> statement-breakpoint
CREATE INDEX "sandbox_payments_webhook_due_idx" ON "sandbox_payments" USING btree ("webhook_next_at") WHERE "sandbox_payments"."webhook_delivered_at" IS NULL AND "sandbox_payments"."webhook_next_at" IS NOT NULL;