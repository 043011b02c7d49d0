CREATE TABLE "gift_card_sales" (
	"gift_card_id" uuid NOT NULL,
	"sales" integer NOT NULL,
	CONSTRAINT "gift_card_sales_positive" CHECK ("gift_card_sales"."sales" > 0)
);
--> statement-breakpoint
ALTER TABLE "gift_card_sales" ADD CONSTRAINT "gift_card_sales_gift_card_id_gift_cards_id_fk" FOREIGN KEY ("gift_card_id") REFERENCES "public"."gift_cards"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "gift_card_sales_gift_card_idx" ON "gift_card_sales" USING btree ("gift_card_id");--> statement-breakpoint
-- Issue 14 (ADR 031): no sale writes its design's row. A sale's statement updated gift_cards.sold_count, so
-- every sale of a card (from any instance) waited for the one before it to commit, and each one announced a
-- catalogue change, on which every instance dropped its catalogue pages. Now each sale's statement adds a
-- row per design to gift_card_sales, and this fold moves them into the sold counts: deleted and added in one
-- statement, so a reader's snapshot counts every sale once, before or after a fold. Only one fold runs at a
-- time (an advisory lock; another instance's fold finds it taken and leaves the rows for the next), so two
-- folds never update the same cards in different orders. Answers how many cards it changed.
CREATE FUNCTION fold_sold_counts() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  v_cards integer;
BEGIN
  IF NOT pg_try_advisory_xact_lock(4207310025) THEN
    RETURN 0;
  END IF;
  WITH moved AS (DELETE FROM gift_card_sales RETURNING gift_card_id, sales),
  counted AS (SELECT gift_card_id, sum(sales)::integer AS sales FROM moved GROUP BY gift_card_id)
  UPDATE gift_cards g SET sold_count = g.sold_count + c.sales FROM counted c WHERE g.id = c.gift_card_id;
  GET DIAGNOSTICS v_cards = ROW_COUNT;
  RETURN v_cards;
END;
$$;
