ALTER TABLE "card_activities" ADD COLUMN "seq" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "card_activities_card_seq_unique" ON "card_activities" USING btree ("purchased_card_id","seq") WHERE "card_activities"."seq" > 0;--> statement-breakpoint
-- Issue 14: the card integrity checks of 0007 read one row instead of summing a card's whole history, which
-- every use of a card made longer (three sums of all its activities per redemption). Each new activity is
-- numbered under the card's lock (seq = the last number + 1, whatever the insert said), and its balance_after
-- is checked against the last numbered activity's. By induction that is still the sum of all the card's
-- activities: the history is append-only (0007), and the first numbered activity of a card is checked against
-- the sum of those written before this migration (seq 0, left as they are), once. The partial unique index
-- backs the numbering up.
--
-- What a card's activities add up to, for both checks: the last numbered activity's balance_after and its
-- number, or, when none is numbered yet, the sum of the ones before the numbering and 0.
CREATE FUNCTION card_activities_total(card_id uuid, OUT last_seq integer, OUT total bigint) AS $$
BEGIN
  SELECT seq, balance_after INTO last_seq, total FROM card_activities
    WHERE purchased_card_id = card_id AND seq > 0
    ORDER BY seq DESC LIMIT 1;
  IF NOT FOUND THEN
    SELECT 0, coalesce(sum(amount), 0) INTO last_seq, total FROM card_activities
      WHERE purchased_card_id = card_id;
  END IF;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION card_activities_check_running_balance() RETURNS trigger AS $$
DECLARE
  before record;
BEGIN
  PERFORM 1 FROM purchased_cards WHERE id = NEW.purchased_card_id FOR UPDATE;
  SELECT * INTO before FROM card_activities_total(NEW.purchased_card_id);
  NEW.seq := before.last_seq + 1;
  IF NEW.balance_after <> before.total + NEW.amount OR NEW.balance_after < 0 THEN
    RAISE EXCEPTION 'card activity on % says balance % after %, but the activities sum to %',
      NEW.purchased_card_id, NEW.balance_after, NEW.amount, before.total + NEW.amount
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- At commit, a card's balance is compared with what its activities add up to.
CREATE OR REPLACE FUNCTION purchased_cards_check_balance() RETURNS trigger AS $$
DECLARE
  -- One function for both tables: the field is read by name, since each table's row has only one of them.
  card_id uuid := (to_jsonb(NEW) ->> CASE WHEN TG_TABLE_NAME = 'purchased_cards' THEN 'id' ELSE 'purchased_card_id' END)::uuid;
  card_balance bigint;
  total bigint := (card_activities_total(card_id)).total;
BEGIN
  SELECT balance INTO card_balance FROM purchased_cards WHERE id = card_id;
  IF card_balance IS DISTINCT FROM total THEN
    RAISE EXCEPTION 'purchased card % has balance % but its activities sum to %', card_id, card_balance, total
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
