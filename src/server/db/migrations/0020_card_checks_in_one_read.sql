-- Issue 14 (ninth session): the card checks of 0007 and 0016, with the same rules and fewer steps. `perf`
-- during the redemption bench put about a quarter of PostgreSQL's time per redemption in triggers. Part of it
-- was the checks' own machinery:
--   - both checks called card_activities_total(), a second PL/pgSQL function with statements of its own;
--   - the check at commit turned the whole new row into JSON (to_jsonb) to find the card's id, since one
--     function serves both tables.
-- Now each check reads the card's last numbered activity itself. The check at commit reads the card's balance
-- in the same statement, and takes the card's id from the row's own field.
--
-- 1. Before each activity: the card's lock, then its last numbered activity (or, for a card whose activities
--    all predate the numbering, their sum); the new one is numbered next and must add up.
CREATE OR REPLACE FUNCTION card_activities_check_running_balance() RETURNS trigger AS $$
DECLARE
  last_seq integer;
  total bigint;
BEGIN
  PERFORM 1 FROM purchased_cards WHERE id = NEW.purchased_card_id FOR UPDATE;
  SELECT a.seq, a.balance_after INTO last_seq, total FROM card_activities a
   WHERE a.purchased_card_id = NEW.purchased_card_id AND a.seq > 0
   ORDER BY a.seq DESC LIMIT 1;
  IF NOT FOUND THEN
    SELECT 0, coalesce(sum(a.amount), 0) INTO last_seq, total FROM card_activities a
     WHERE a.purchased_card_id = NEW.purchased_card_id;
  END IF;
  NEW.seq := last_seq + 1;
  IF NEW.balance_after <> total + NEW.amount OR NEW.balance_after < 0 THEN
    RAISE EXCEPTION 'card activity on % says balance % after %, but the activities sum to %',
      NEW.purchased_card_id, NEW.balance_after, NEW.amount, total + NEW.amount
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- 2. At commit, for a card written or an activity added: the card's balance against its last numbered
--    activity's balance_after, read together (or the sum, as above). PL/pgSQL compiles the function for each
--    table it is a trigger of, and only the branch for that table's row is ever run.
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
  SELECT c.balance,
         (SELECT a.balance_after FROM card_activities a
           WHERE a.purchased_card_id = c.id AND a.seq > 0
           ORDER BY a.seq DESC LIMIT 1)
    INTO card_balance, total
    FROM purchased_cards c WHERE c.id = card_id;
  IF total IS NULL THEN
    SELECT coalesce(sum(a.amount), 0) INTO total FROM card_activities a WHERE a.purchased_card_id = card_id;
  END IF;
  IF card_balance IS DISTINCT FROM total THEN
    RAISE EXCEPTION 'purchased card % has balance % but its activities sum to %', card_id, card_balance, total
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
DROP FUNCTION card_activities_total(uuid);
