-- Issue 14 (ADR 039): a card's issue is its own row. A sale wrote, with each new card, an `issue` activity
-- (its whole value, numbered 1) that said again what the card's `initial_value` and `created_at` say: a heap row,
-- four index entries and a foreign-key check a sale, and a check at commit of the new card against it. The card
-- now stands for its issue: what its activities add up to starts from its initial value when it has no issue
-- activity (every card sold from now on), and from nothing when it has one (every card sold before, whose
-- issue is an activity like any other). The card history still shows the issue, read from the card.
--
-- The rules are unchanged: an activity's balance_after follows from the card's previous balance (the running
-- balance's trigger reads card_activities_total as before), and a card's balance is what its activities add
-- up to, checked at commit for every card whose balance changes or that gets an activity. A card inserted at
-- its whole value with no activity is that already: activities reference their card, so none can come before
-- it, and any added later in the transaction queues the card's check. A card inserted at another balance still
-- queues its check.
CREATE OR REPLACE FUNCTION card_activities_total(card_id uuid) RETURNS TABLE (last_seq integer, total bigint) AS $$
  SELECT coalesce(l.seq, 0),
         coalesce(l.balance_after,
                  (SELECT coalesce(sum(a.amount), 0)::bigint FROM card_activities a
                    WHERE a.purchased_card_id = card_id)
                  + CASE WHEN EXISTS (SELECT 1 FROM card_activities i
                                       WHERE i.purchased_card_id = card_id AND i.kind = 'issue')
                         THEN 0
                         ELSE (SELECT c.initial_value FROM purchased_cards c WHERE c.id = card_id) END)
    FROM (SELECT 1) AS one
    LEFT JOIN LATERAL (SELECT a.seq, a.balance_after FROM card_activities a
                        WHERE a.purchased_card_id = card_id AND a.seq > 0
                        ORDER BY a.seq DESC LIMIT 1) AS l ON true
$$ LANGUAGE sql STABLE;
--> statement-breakpoint
DROP TRIGGER purchased_cards_balance_matches_activity ON purchased_cards;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER purchased_cards_balance_matches_activity
  AFTER UPDATE OF balance ON purchased_cards
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (
    strpos(coalesce(current_setting('giftmart.cards_queued', true), ''), NEW.id::text) = 0
    AND set_config('giftmart.cards_queued',
                   right(coalesce(current_setting('giftmart.cards_queued', true), ''), 62 * 37)
                     || NEW.id::text || ' ',
                   true) IS NOT NULL)
  EXECUTE FUNCTION purchased_cards_check_balance();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER purchased_cards_issued_at_balance
  AFTER INSERT ON purchased_cards
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (
    NEW.balance <> NEW.initial_value
    AND strpos(coalesce(current_setting('giftmart.cards_queued', true), ''), NEW.id::text) = 0
    AND set_config('giftmart.cards_queued',
                   right(coalesce(current_setting('giftmart.cards_queued', true), ''), 62 * 37)
                     || NEW.id::text || ' ',
                   true) IS NOT NULL)
  EXECUTE FUNCTION purchased_cards_check_balance();
