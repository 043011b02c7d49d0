CREATE TABLE "ledger_balances" (
	"ledger_account_id" uuid PRIMARY KEY NOT NULL,
	"balance" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_fold" (
	"one" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"through" "xid8" NOT NULL,
	CONSTRAINT "ledger_fold_one_row" CHECK ("ledger_fold"."one")
);
--> statement-breakpoint
DROP INDEX "postings_ledger_account_idx";--> statement-breakpoint
-- A constant default first, so adding the column does not rewrite the table (the postings written before
-- this migration read as transaction 1: folded by the first fold); then each new posting's own transaction.
ALTER TABLE "postings" ADD COLUMN "xact" "xid8" DEFAULT '1' NOT NULL;--> statement-breakpoint
ALTER TABLE "postings" ALTER COLUMN "xact" SET DEFAULT pg_current_xact_id();--> statement-breakpoint
ALTER TABLE "ledger_balances" ADD CONSTRAINT "ledger_balances_ledger_account_id_ledger_accounts_id_fk" FOREIGN KEY ("ledger_account_id") REFERENCES "public"."ledger_accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "postings_ledger_account_xact_idx" ON "postings" USING btree ("ledger_account_id","xact");--> statement-breakpoint
CREATE INDEX "postings_xact_idx" ON "postings" USING btree ("xact");--> statement-breakpoint
-- Issue 14 (ADR 022): a ledger account's balance without summing its whole history. A withdrawal summed every
-- posting of the wallet under its lock, and the wallet page summed them too: 67 ms for a wallet with a million
-- postings. Sales must not queue on a balance row (ADR 015), so the postings are folded in the background:
--   ledger_balances  each account's postings summed up to ledger_fold.through;
--   ledger_fold      one row: the fold has added the postings of every transaction that began before
--                    `through` (a transaction id); none after.
-- A balance is the folded sum plus the postings written since (their transaction >= through), read in one
-- snapshot. The fold only takes transactions before the oldest one still running (the xmin of a snapshot),
-- so a posting can never commit behind it: each posting is counted once, folded or not. Postings stay the
-- only source (append-only, 0001); the fold can be thrown away and rebuilt from them.
INSERT INTO "ledger_fold" ("one", "through") VALUES (true, '1');
--> statement-breakpoint
CREATE FUNCTION ledger_balance(p_account uuid) RETURNS bigint LANGUAGE sql STABLE AS $$
  SELECT (coalesce((SELECT b.balance FROM ledger_balances b WHERE b.ledger_account_id = p_account), 0)
        + coalesce((SELECT sum(p.amount) FROM postings p
                     WHERE p.ledger_account_id = p_account
                       AND p.xact >= (SELECT f.through FROM ledger_fold f)), 0))::bigint
$$;
--> statement-breakpoint
-- Folds the postings of the transactions that have all ended since the last fold; answers how many accounts
-- it changed. Any instance may run it at any time: the fold row's lock takes them in turn.
CREATE FUNCTION fold_ledger_balances() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  v_from xid8;
  v_to xid8;
  v_accounts integer;
BEGIN
  SELECT f.through INTO v_from FROM ledger_fold f FOR UPDATE;
  -- A snapshot taken after the lock: every transaction before its xmin has ended, committed or not.
  SELECT pg_snapshot_xmin(pg_current_snapshot()) INTO v_to;
  IF v_to <= v_from THEN
    RETURN 0;
  END IF;
  INSERT INTO ledger_balances AS b (ledger_account_id, balance)
  SELECT p.ledger_account_id, sum(p.amount)::bigint FROM postings p
   WHERE p.xact >= v_from AND p.xact < v_to
   GROUP BY p.ledger_account_id
  ON CONFLICT (ledger_account_id) DO UPDATE SET balance = b.balance + excluded.balance;
  GET DIAGNOSTICS v_accounts = ROW_COUNT;
  UPDATE ledger_fold SET through = v_to;
  RETURN v_accounts;
END;
$$;
--> statement-breakpoint
-- The withdrawal of 0015, unchanged but for its balance: ledger_balance() instead of the sum of all postings.
CREATE OR REPLACE FUNCTION request_withdrawal(
  p_business uuid,
  p_currency text,
  p_bank uuid,
  p_amount bigint,
  p_reference text,
  p_key text,
  p_fingerprint text,
  p_same_within int,
  p_news jsonb
) RETURNS TABLE (outcome text, withdrawal_id uuid, balance bigint, created_at timestamptz)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_wallet uuid;
  v_in_flight uuid;
  v_balance bigint;
  v_id uuid;
  v_created timestamptz;
  v_entry uuid;
BEGIN
  SELECT a.id INTO v_wallet FROM ledger_accounts a
   WHERE a.kind = 'business_wallet' AND a.owner_id = p_business AND a.currency = p_currency
     FOR UPDATE;
  SELECT a.id INTO v_in_flight FROM ledger_accounts a
   WHERE a.kind = 'payouts_in_flight' AND a.owner_id IS NULL AND a.currency = p_currency;
  IF v_wallet IS NULL OR v_in_flight IS NULL THEN
    RETURN QUERY SELECT 'no_accounts'::text, NULL::uuid, NULL::bigint, NULL::timestamptz;
    RETURN;
  END IF;
  -- Held against a removal in flight (which checks for withdrawals) until this commits.
  PERFORM 1 FROM bank_accounts b WHERE b.id = p_bank AND b.removed_at IS NULL FOR SHARE;
  IF NOT FOUND THEN
    RETURN QUERY SELECT 'bank_gone'::text, NULL::uuid, NULL::bigint, NULL::timestamptz;
    RETURN;
  END IF;
  IF p_key IS NULL AND p_same_within > 0 THEN
    SELECT w.id INTO v_id FROM withdrawals w
     WHERE w.business_id = p_business AND w.bank_account_id = p_bank AND w.amount = p_amount
       AND w.idempotency_key IS NULL AND w.created_at > now() - make_interval(secs => p_same_within)
     ORDER BY w.created_at DESC LIMIT 1;
    IF v_id IS NOT NULL THEN
      RETURN QUERY SELECT 'same'::text, v_id, NULL::bigint, NULL::timestamptz;
      RETURN;
    END IF;
  END IF;
  SELECT ledger_balance(v_wallet) INTO v_balance;
  IF p_amount > v_balance THEN
    -- A retry racing its first request: the first may have spent the balance; it answers that one.
    IF p_key IS NOT NULL THEN
      SELECT w.id INTO v_id FROM withdrawals w WHERE w.business_id = p_business AND w.idempotency_key = p_key;
      IF v_id IS NOT NULL THEN
        RETURN QUERY SELECT 'replay'::text, v_id, NULL::bigint, NULL::timestamptz;
        RETURN;
      END IF;
    END IF;
    RETURN QUERY SELECT 'insufficient'::text, NULL::uuid, v_balance, NULL::timestamptz;
    RETURN;
  END IF;
  INSERT INTO withdrawals (business_id, bank_account_id, amount, currency, reference, idempotency_key,
                           request_fingerprint, next_attempt_at)
  VALUES (p_business, p_bank, p_amount, p_currency, p_reference, p_key, p_fingerprint, now())
  ON CONFLICT (business_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
  RETURNING withdrawals.id, withdrawals.created_at INTO v_id, v_created;
  IF v_id IS NULL THEN
    SELECT w.id INTO v_id FROM withdrawals w WHERE w.business_id = p_business AND w.idempotency_key = p_key;
    RETURN QUERY SELECT 'replay'::text, v_id, NULL::bigint, NULL::timestamptz;
    RETURN;
  END IF;
  INSERT INTO journal_entries (kind, reference) VALUES ('withdrawal', 'withdrawal:' || v_id)
  RETURNING journal_entries.id INTO v_entry;
  INSERT INTO postings (entry_id, ledger_account_id, amount, currency)
  VALUES (v_entry, v_wallet, -p_amount, p_currency), (v_entry, v_in_flight, p_amount, p_currency);
  INSERT INTO notifications (account_id, kind, title, body, link)
  SELECT n.account_id, n.kind, n.title, n.body, n.link
    FROM jsonb_to_recordset(p_news) AS n(account_id uuid, kind text, title text, body text, link text);
  RETURN QUERY SELECT 'written'::text, v_id, v_balance - p_amount, v_created;
END;
$$;
