ALTER TYPE "public"."card_activity_kind" ADD VALUE 'reverse';--> statement-breakpoint
ALTER TYPE "public"."card_activity_kind" ADD VALUE 'expire';--> statement-breakpoint
ALTER TYPE "public"."card_activity_kind" ADD VALUE 'block';--> statement-breakpoint
ALTER TYPE "public"."card_activity_kind" ADD VALUE 'unblock';--> statement-breakpoint
ALTER TYPE "public"."card_activity_kind" ADD VALUE 'freeze';--> statement-breakpoint
ALTER TYPE "public"."card_activity_kind" ADD VALUE 'unfreeze';--> statement-breakpoint
ALTER TYPE "public"."order_status" ADD VALUE 'refunded';--> statement-breakpoint
ALTER TYPE "public"."purchased_card_status" ADD VALUE 'frozen';--> statement-breakpoint
ALTER TYPE "public"."purchased_card_status" ADD VALUE 'blocked';--> statement-breakpoint
ALTER TABLE "card_activities" ADD COLUMN "actor_id" uuid;--> statement-breakpoint
ALTER TABLE "card_activities" ADD COLUMN "reference" text;--> statement-breakpoint
ALTER TABLE "card_activities" ADD COLUMN "reverses_id" uuid;--> statement-breakpoint
ALTER TABLE "card_activities" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
ALTER TABLE "card_activities" ADD COLUMN "request_hash" text;--> statement-breakpoint
ALTER TABLE "gift_cards" ADD COLUMN "validity_months" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refunded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "purchased_cards" ADD COLUMN "blocked_reason" text;--> statement-breakpoint
ALTER TABLE "purchased_cards" ADD COLUMN "expiry_reminded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "card_activities" ADD CONSTRAINT "card_activities_actor_id_accounts_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_activities" ADD CONSTRAINT "card_activities_reverses_id_card_activities_id_fk" FOREIGN KEY ("reverses_id") REFERENCES "public"."card_activities"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "card_activities_reverses_unique" ON "card_activities" USING btree ("reverses_id") WHERE "card_activities"."reverses_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "card_activities_idempotency_unique" ON "card_activities" USING btree ("actor_id","idempotency_key") WHERE "card_activities"."idempotency_key" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "card_activities_actor_idx" ON "card_activities" USING btree ("actor_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "purchased_cards_business_idx" ON "purchased_cards" USING btree ("business_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "purchased_cards_business_last4_idx" ON "purchased_cards" USING btree ("business_id","code_last4");--> statement-breakpoint
CREATE INDEX "purchased_cards_expiry_idx" ON "purchased_cards" USING btree ("expires_at") WHERE "purchased_cards"."expires_at" IS NOT NULL AND "purchased_cards"."status" NOT IN ('redeemed', 'expired', 'void');--> statement-breakpoint
ALTER TABLE "gift_cards" ADD CONSTRAINT "gift_cards_validity_months_range" CHECK ("gift_cards"."validity_months" IS NULL OR "gift_cards"."validity_months" BETWEEN 1 AND 60);