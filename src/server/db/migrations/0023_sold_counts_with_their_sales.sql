-- Issue 14 (ADR 027): a sale's statement adds its sales to their gift cards' sold counts itself, once per
-- statement for all the sales it completes, so the flag and the flush after the commit (0012) go. Sales
-- still flagged (a crash between a commit and its flush) are counted first.
UPDATE "gift_cards" g SET "sold_count" = g."sold_count" + c.sales
  FROM (SELECT "gift_card_id", count(*)::int AS sales FROM "orders" WHERE "sold_count_pending" GROUP BY "gift_card_id") c
 WHERE g."id" = c."gift_card_id";--> statement-breakpoint
DROP INDEX "orders_sold_count_pending_idx";--> statement-breakpoint
ALTER TABLE "orders" DROP COLUMN "sold_count_pending";
