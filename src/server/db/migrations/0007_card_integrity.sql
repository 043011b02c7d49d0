-- A purchased card's balance lives in the database's keeping, like the ledger (0001_ledger_integrity.sql):
-- 1. Card activity is append-only: a mistake is corrected by a new activity (a reversal), never an edit.
CREATE OR REPLACE FUNCTION card_activities_refuse_change() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'card activity is append-only: % on % is not allowed', TG_OP, TG_TABLE_NAME
    USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER card_activities_append_only BEFORE UPDATE OR DELETE ON card_activities
  FOR EACH ROW EXECUTE FUNCTION card_activities_refuse_change();
--> statement-breakpoint
CREATE TRIGGER card_activities_no_truncate BEFORE TRUNCATE ON card_activities
  FOR EACH STATEMENT EXECUTE FUNCTION card_activities_refuse_change();
--> statement-breakpoint
-- 2. Each activity's balance_after is the card's previous activities plus its own amount. The card's row is
--    locked first, so two activities of one card are written one after the other, never from the same sum.
CREATE OR REPLACE FUNCTION card_activities_check_running_balance() RETURNS trigger AS $$
DECLARE
  before_sum bigint;
BEGIN
  PERFORM 1 FROM purchased_cards WHERE id = NEW.purchased_card_id FOR UPDATE;
  SELECT coalesce(sum(amount), 0) INTO before_sum FROM card_activities
    WHERE purchased_card_id = NEW.purchased_card_id;
  IF NEW.balance_after <> before_sum + NEW.amount OR NEW.balance_after < 0 THEN
    RAISE EXCEPTION 'card activity on % says balance % after %, but the activities sum to %',
      NEW.purchased_card_id, NEW.balance_after, NEW.amount, before_sum + NEW.amount
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER card_activities_running_balance BEFORE INSERT ON card_activities
  FOR EACH ROW EXECUTE FUNCTION card_activities_check_running_balance();
--> statement-breakpoint
-- 3. A card's balance equals the sum of its activities, checked at commit (deferred), so a card and its first
--    activity, or a new balance and its activity, can be written in either order inside one transaction.
CREATE OR REPLACE FUNCTION purchased_cards_check_balance() RETURNS trigger AS $$
DECLARE
  -- One function for both tables: the field is read by name, since each table's row has only one of them.
  card_id uuid := (to_jsonb(NEW) ->> CASE WHEN TG_TABLE_NAME = 'purchased_cards' THEN 'id' ELSE 'purchased_card_id' END)::uuid;
  card_balance bigint;
  total bigint;
BEGIN
  SELECT balance INTO card_balance FROM purchased_cards WHERE id = card_id;
  SELECT coalesce(sum(amount), 0) INTO total FROM card_activities WHERE purchased_card_id = card_id;
  IF card_balance IS DISTINCT FROM total THEN
    RAISE EXCEPTION 'purchased card % has balance % but its activities sum to %', card_id, card_balance, total
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER purchased_cards_balance_matches_activity
  AFTER INSERT OR UPDATE OF balance ON purchased_cards
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION purchased_cards_check_balance();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER card_activities_balance_matches_card
  AFTER INSERT ON card_activities
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION purchased_cards_check_balance();
