-- Issue 14 (ADR 038): an order and a card name their design and its business by one key, not two.
-- Before, each row's design was checked against gift_cards and its business against accounts, separately, so
-- nothing held an order's business to be its design's business, and each sale's foreign-key checks locked its
-- business's account row (FOR KEY SHARE), which every sale and order of that business locks too. Now
-- (gift_card_id, business_id) must be a design and its own business, one check in gift_cards' new unique key;
-- the business still exists, through gift_cards' own key to accounts, and neither can be deleted while a card
-- or an order names them (ON DELETE RESTRICT, as before).
-- The key goes first: the foreign keys need it.
ALTER TABLE "gift_cards" ADD CONSTRAINT "gift_cards_id_business_unique" UNIQUE("id","business_id");
--> statement-breakpoint
ALTER TABLE "purchased_cards" DROP CONSTRAINT "purchased_cards_gift_card_id_gift_cards_id_fk";
--> statement-breakpoint
ALTER TABLE "purchased_cards" DROP CONSTRAINT "purchased_cards_business_id_accounts_id_fk";
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_gift_card_id_gift_cards_id_fk";
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_business_id_accounts_id_fk";
--> statement-breakpoint
ALTER TABLE "purchased_cards" ADD CONSTRAINT "purchased_cards_design_of_business_fk" FOREIGN KEY ("gift_card_id","business_id") REFERENCES "public"."gift_cards"("id","business_id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_design_of_business_fk" FOREIGN KEY ("gift_card_id","business_id") REFERENCES "public"."gift_cards"("id","business_id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
-- A business's redemptions by their actor: every query of the index names one, and an issue has none, so a
-- sale no longer writes an entry here.
DROP INDEX "card_activities_actor_idx";
--> statement-breakpoint
CREATE INDEX "card_activities_actor_idx" ON "card_activities" USING btree ("actor_id","created_at" DESC NULLS LAST) WHERE "card_activities"."actor_id" IS NOT NULL;
