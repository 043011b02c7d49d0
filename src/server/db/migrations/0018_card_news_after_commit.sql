-- Issue 14 (ADR 024): a redemption's (or reversal's) news to the holder is written after its transaction
-- commits, in batches, instead of inside it: the notification, its mail and its NOTIFY cost the money
-- transaction more than the spend itself. Each activity records the transaction that wrote it; `card_news`
-- says how far the news has been written: for every redemption and reversal of the transactions before
-- `through`, none after. `deliverCardNews` takes only transactions before the oldest one still running (the
-- xmin of a snapshot), so an activity can never commit behind it: each gets its news exactly once.
CREATE TABLE "card_news" (
	"one" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"through" "xid8" NOT NULL,
	CONSTRAINT "card_news_one_row" CHECK ("card_news"."one")
);
--> statement-breakpoint
-- A constant default first, so adding the column does not rewrite the table (the activities written before
-- this migration read as transaction 1, before `through`: their news was written with them); then each new
-- activity's own transaction.
ALTER TABLE "card_activities" ADD COLUMN "xact" "xid8" DEFAULT '1' NOT NULL;--> statement-breakpoint
ALTER TABLE "card_activities" ALTER COLUMN "xact" SET DEFAULT pg_current_xact_id();--> statement-breakpoint
-- Every activity but a sale's issue (no news, and every purchase would pay for its entry). Not a predicate on
-- the news' kinds: 'reverse' came with ALTER TYPE ADD VALUE (0006), and on PostgreSQL 15 a new database,
-- migrated in one transaction, cannot use that value before it commits; 'issue' was made with the type.
CREATE INDEX "card_activities_xact_idx" ON "card_activities" USING btree ("xact") WHERE "card_activities"."kind" <> 'issue';--> statement-breakpoint
-- This migration's own transaction: every activity written after it commits has a later one.
INSERT INTO "card_news" ("one", "through") VALUES (true, pg_current_xact_id());
