-- Issue 14 (ADR 040): the journal entries a transaction writes are checked at commit by one check, not one for
-- each entry. A sale's statement writes up to 64 sales' entries (ADR 027), and each queued its own check at
-- commit (ADR 033): a PL/pgSQL call, a setting cleared and a query, about 25–35 µs a sale, all of it on the
-- sale's statement, which the purchases wait on.
--
-- The rules are unchanged, and still checked at commit (or when the constraint is set IMMEDIATE): every journal
-- entry a transaction writes or adds postings to has at least two postings, and they sum to zero in each
-- currency. The messages are unchanged, and a transaction with several wrong entries is refused with one of them.
--
-- How: the key list of 0026 (`giftmart.ledger_entries_queued`, local to the transaction) now holds the entries
-- whose check is queued and has not run, and the check that runs checks them all, in one query, and clears it.
-- A row whose entry is listed queues nothing. The first row of an entry not listed lists it, and queues a check
-- only when the list was empty: the check already queued will read the list when it runs, at commit. With 63
-- entries listed, a row of another entry queues a check of its own (of its entry and of the list, then empty or
-- not): the list stays short, so a transaction of a million rows does not copy a long list at each row. A
-- savepoint rolled back undoes the list as it undoes the checks queued in it; a check that runs clears the list,
-- so a row written after it ran (SET CONSTRAINTS … IMMEDIATE) lists its entry again and queues a check.
CREATE OR REPLACE FUNCTION ledger_check_entry() RETURNS trigger AS $$
DECLARE
  own uuid;
  listed text := coalesce(current_setting('giftmart.ledger_entries_queued', true), '');
  wrong record;
  off_currency text;
  off_total numeric;
BEGIN
  IF TG_TABLE_NAME = 'journal_entries' THEN
    own := NEW.id;
  ELSE
    own := NEW.entry_id;
  END IF;
  PERFORM set_config('giftmart.ledger_entries_queued', '', true);
  FOR wrong IN
    -- Each entry's postings read by its own look-up in postings_entry_idx, as one entry's check read them.
    SELECT e.id AS entry, s.posted, s.total, s.low, s.high
      FROM (SELECT DISTINCT key::uuid AS id
              FROM unnest(string_to_array(listed || own::text, ' ')) AS key WHERE key <> '') AS e
     CROSS JOIN LATERAL (SELECT count(*) AS posted, sum(p.amount) AS total, min(p.currency) AS low,
                                max(p.currency) AS high
                           FROM postings p WHERE p.entry_id = e.id) AS s
     WHERE s.posted < 2 OR s.low IS DISTINCT FROM s.high OR s.total <> 0
     ORDER BY e.id
  LOOP
    off_currency := NULL;
    off_total := NULL;
    IF wrong.low IS DISTINCT FROM wrong.high THEN
      -- Several currencies (rare): each must balance on its own.
      SELECT currency, sum(amount) INTO off_currency, off_total FROM postings WHERE entry_id = wrong.entry
       GROUP BY currency HAVING sum(amount) <> 0 ORDER BY currency LIMIT 1;
    ELSIF wrong.total <> 0 THEN
      off_currency := wrong.low;
      off_total := wrong.total;
    END IF;
    IF off_total IS NOT NULL THEN
      RAISE EXCEPTION 'journal entry % does not balance: % % off', wrong.entry, off_total, off_currency
        USING ERRCODE = 'check_violation';
    END IF;
    IF wrong.posted < 2 THEN
      RAISE EXCEPTION 'journal entry % needs at least two postings', wrong.entry USING ERRCODE = 'check_violation';
    END IF;
  END LOOP;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
DROP TRIGGER journal_entries_have_postings ON journal_entries;
--> statement-breakpoint
DROP TRIGGER postings_balanced ON postings;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER journal_entries_have_postings
  AFTER INSERT ON journal_entries
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (
    CASE
      WHEN strpos(coalesce(current_setting('giftmart.ledger_entries_queued', true), ''), NEW.id::text) > 0
        THEN false
      WHEN coalesce(current_setting('giftmart.ledger_entries_queued', true), '') = ''
        THEN set_config('giftmart.ledger_entries_queued', NEW.id::text || ' ', true) IS NOT NULL
      WHEN length(current_setting('giftmart.ledger_entries_queued', true)) < 63 * 37
        THEN set_config('giftmart.ledger_entries_queued',
                        current_setting('giftmart.ledger_entries_queued', true) || NEW.id::text || ' ',
                        true) IS NULL
      ELSE true
    END)
  EXECUTE FUNCTION ledger_check_entry();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER postings_balanced
  AFTER INSERT ON postings
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (
    CASE
      WHEN strpos(coalesce(current_setting('giftmart.ledger_entries_queued', true), ''), NEW.entry_id::text) > 0
        THEN false
      WHEN coalesce(current_setting('giftmart.ledger_entries_queued', true), '') = ''
        THEN set_config('giftmart.ledger_entries_queued', NEW.entry_id::text || ' ', true) IS NOT NULL
      WHEN length(current_setting('giftmart.ledger_entries_queued', true)) < 63 * 37
        THEN set_config('giftmart.ledger_entries_queued',
                        current_setting('giftmart.ledger_entries_queued', true) || NEW.entry_id::text || ' ',
                        true) IS NULL
      ELSE true
    END)
  EXECUTE FUNCTION ledger_check_entry();
