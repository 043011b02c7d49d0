-- Issue 14 (ADR 033): the ledger's and the cards' checks at commit run once for each entry and each card a
-- transaction writes, not once for each row. With the card and ledger checks turned off (a scratch run of the
-- purchase bench), PostgreSQL's CPU per purchase fell by a quarter: each sale queued five checks at commit (one
-- for each of its two or three postings, one for its journal entry, one for its card, one for its first
-- activity), each a PL/pgSQL call and a query, and the checks of one entry, or of one card, read the same rows
-- and reached the same answer.
--
-- The rules are unchanged, and still checked at commit (or when the constraint is set IMMEDIATE):
-- - every journal entry a transaction writes or adds postings to has at least two postings, and they sum to
--   zero in each currency;
-- - every card a transaction writes (its balance) or adds an activity to has the balance its activities add up to.
--
-- How a row's check is skipped: the trigger's WHEN (evaluated as the row is written, not at commit) queues the
-- check unless the entry (or card) is among those whose checks the transaction queued and has not yet run; such a
-- check reads, at commit, the entry's postings (the card's balance and activities) as they are then, so it
-- covers the row. The WHEN keeps those keys in a setting local to the transaction (the last 63,
-- so that a transaction of a million rows does not copy a long list at each row; a key forgotten is only checked
-- twice). The setting is undone with the transaction, or with the savepoint that queued the checks, as the
-- queued checks are; a check that runs clears it, so a row written after a check ran (SET CONSTRAINTS …
-- IMMEDIATE) queues its own. A sale's statement now queues one check for its journal entry and one for its card.
-- The WHEN is written out in each trigger, built-in functions only: PostgreSQL prepares a trigger's WHEN for
-- each statement, and a SQL function in it was parsed and inlined again every time (`perf`: 3 % of its CPU).
-- The ledger: one check for both rules, queued by an entry and by a posting, whichever comes first.
CREATE FUNCTION ledger_check_entry() RETURNS trigger AS $$
DECLARE
  entry uuid;
  posted bigint;
  total numeric;
  low text;
  high text;
  off_currency text;
  off_total numeric;
BEGIN
  IF TG_TABLE_NAME = 'journal_entries' THEN
    entry := NEW.id;
  ELSE
    entry := NEW.entry_id;
  END IF;
  PERFORM set_config('giftmart.ledger_entries_queued', '', true);
  SELECT count(*), sum(amount), min(currency), max(currency) INTO posted, total, low, high
    FROM postings WHERE entry_id = entry;
  IF low IS DISTINCT FROM high THEN
    -- Several currencies (rare): each must balance on its own.
    SELECT currency, sum(amount) INTO off_currency, off_total FROM postings WHERE entry_id = entry
     GROUP BY currency HAVING sum(amount) <> 0 ORDER BY currency LIMIT 1;
  ELSIF total <> 0 THEN
    off_currency := low;
    off_total := total;
  END IF;
  IF off_total IS NOT NULL THEN
    RAISE EXCEPTION 'journal entry % does not balance: % % off', entry, off_total, off_currency
      USING ERRCODE = 'check_violation';
  END IF;
  IF posted < 2 THEN
    RAISE EXCEPTION 'journal entry % needs at least two postings', entry USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
DROP TRIGGER postings_balanced ON postings;
--> statement-breakpoint
DROP TRIGGER journal_entries_have_postings ON journal_entries;
--> statement-breakpoint
DROP FUNCTION ledger_check_entry_balanced();
--> statement-breakpoint
DROP FUNCTION ledger_check_entry_has_postings();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER journal_entries_have_postings
  AFTER INSERT ON journal_entries
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (
    strpos(coalesce(current_setting('giftmart.ledger_entries_queued', true), ''), NEW.id::text) = 0
    AND set_config('giftmart.ledger_entries_queued',
                   right(coalesce(current_setting('giftmart.ledger_entries_queued', true), ''), 62 * 37)
                     || NEW.id::text || ' ',
                   true) IS NOT NULL)
  EXECUTE FUNCTION ledger_check_entry();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER postings_balanced
  AFTER INSERT ON postings
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (
    strpos(coalesce(current_setting('giftmart.ledger_entries_queued', true), ''), NEW.entry_id::text) = 0
    AND set_config('giftmart.ledger_entries_queued',
                   right(coalesce(current_setting('giftmart.ledger_entries_queued', true), ''), 62 * 37)
                     || NEW.entry_id::text || ' ',
                   true) IS NOT NULL)
  EXECUTE FUNCTION ledger_check_entry();
--> statement-breakpoint
-- The cards: the check of 0020, which now clears the key of the check it runs.
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
  PERFORM set_config('giftmart.cards_queued', '', true);
  SELECT (SELECT c.balance FROM purchased_cards c WHERE c.id = card_id), t.total
    INTO card_balance, total FROM card_activities_total(card_id) AS t;
  IF card_balance IS DISTINCT FROM total THEN
    RAISE EXCEPTION 'purchased card % has balance % but its activities sum to %', card_id, card_balance, total
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
DROP TRIGGER purchased_cards_balance_matches_activity ON purchased_cards;
--> statement-breakpoint
DROP TRIGGER card_activities_balance_matches_card ON card_activities;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER purchased_cards_balance_matches_activity
  AFTER INSERT OR UPDATE OF balance ON purchased_cards
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (
    strpos(coalesce(current_setting('giftmart.cards_queued', true), ''), NEW.id::text) = 0
    AND set_config('giftmart.cards_queued',
                   right(coalesce(current_setting('giftmart.cards_queued', true), ''), 62 * 37)
                     || NEW.id::text || ' ',
                   true) IS NOT NULL)
  EXECUTE FUNCTION purchased_cards_check_balance();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER card_activities_balance_matches_card
  AFTER INSERT ON card_activities
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (
    strpos(coalesce(current_setting('giftmart.cards_queued', true), ''), NEW.purchased_card_id::text) = 0
    AND set_config('giftmart.cards_queued',
                   right(coalesce(current_setting('giftmart.cards_queued', true), ''), 62 * 37)
                     || NEW.purchased_card_id::text || ' ',
                   true) IS NOT NULL)
  EXECUTE FUNCTION purchased_cards_check_balance();
--> statement-breakpoint
-- A card's first activity, its issue, is written with its card in the sale's statement, and the running
-- balance's trigger (0016: lock the card, read its last activity, number the new one) found nothing before it
-- on every sale: the costliest of a purchase's checks. An issue is now held to the same rule by constraints:
-- it is numbered 1 with the card's whole value as its balance, or is unnumbered as the issues written before
-- 0016 are (a CHECK), and a card has one issue (a unique index), so no numbered activity came before it: it
-- would hold the number 1. Every other activity is numbered and checked by the trigger as before, and the
-- check at commit still compares every card written with what its activities add up to.
ALTER TABLE card_activities ADD CONSTRAINT card_activities_issue_first
  CHECK (kind <> 'issue' OR seq = 0 OR (seq = 1 AND balance_after = amount AND amount >= 0));
--> statement-breakpoint
CREATE UNIQUE INDEX card_activities_one_issue ON card_activities (purchased_card_id) WHERE kind = 'issue';
--> statement-breakpoint
DROP TRIGGER card_activities_running_balance ON card_activities;
--> statement-breakpoint
CREATE TRIGGER card_activities_running_balance BEFORE INSERT ON card_activities
  FOR EACH ROW WHEN (NEW.kind <> 'issue')
  EXECUTE FUNCTION card_activities_check_running_balance();
