-- Issue 14 (tenth session): the card checks of 0016 with the same rules and less machinery. `perf` during the
-- redemption bench put about a quarter of PostgreSQL's time per redemption in triggers, and each of a
-- redemption's three checks (the running balance before the activity, the balance at commit for the activity
-- and for the card) called card_activities_total(), a PL/pgSQL function with statements of its own, and the
-- check at commit first turned the whole new row into JSON (to_jsonb) to find the card's id.
--
-- What a card's activities add up to stays in card_activities_total() alone, now one SQL query: a set-returning
-- SQL function that is STABLE and not STRICT is inlined into the query that reads it, so the checks run no second
-- function. Its answer is unchanged: the last numbered activity's number and balance_after, or, when none is
-- numbered yet, 0 and the sum of the activities written before the numbering (the sum is read only then).
-- Its columns keep their names, so the running balance's check of 0016 (`SELECT * … FROM card_activities_total`)
-- reads it unchanged, now inlined; only the check at commit is rewritten.
DROP FUNCTION card_activities_total(uuid);
--> statement-breakpoint
CREATE FUNCTION card_activities_total(card_id uuid) RETURNS TABLE (last_seq integer, total bigint) AS $$
  SELECT coalesce(l.seq, 0),
         coalesce(l.balance_after,
                  (SELECT coalesce(sum(a.amount), 0)::bigint FROM card_activities a
                    WHERE a.purchased_card_id = card_id))
    FROM (SELECT 1) AS one
    LEFT JOIN LATERAL (SELECT a.seq, a.balance_after FROM card_activities a
                        WHERE a.purchased_card_id = card_id AND a.seq > 0
                        ORDER BY a.seq DESC LIMIT 1) AS l ON true
$$ LANGUAGE sql STABLE;
--> statement-breakpoint
-- At commit, for a card written or an activity added: the card's balance and what its activities add up to,
-- read in one query. PL/pgSQL compiles the function for each table it is a trigger of, and only the branch for
-- that table's row is ever run (the card's id is `id` on a card, `purchased_card_id` on an activity).
CREATE OR REPLACE FUNCTION purchased_cards_check_balance() RETURNS trigger AS $$
DECLARE
  card_id uuid;
  card_balance bigint;
  total bigint;
BEGIN
  IF TG_TABLE_NAME = 'purchased_cards' THEN
    card_id := NEW.id;
  ELSE
    card_id := NEW.purchased_card_id;
  END IF;
  SELECT (SELECT c.balance FROM purchased_cards c WHERE c.id = card_id), t.total
    INTO card_balance, total FROM card_activities_total(card_id) AS t;
  IF card_balance IS DISTINCT FROM total THEN
    RAISE EXCEPTION 'purchased card % has balance % but its activities sum to %', card_id, card_balance, total
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
