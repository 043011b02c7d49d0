-- Issue 14 (ADR 017): a withdrawal's transaction in one call instead of seven round trips (BEGIN, the wallet's
-- lock, the bank hold and balance, the withdrawal, the ledger entry, the notification, COMMIT). Each statement
-- below runs with its own snapshot, as the app's statements did, so the balance is summed after the wallet's
-- lock is held and sees every withdrawal committed before it. The app decides everything that does not need
-- the lock (the amount, the bank account, the PIN) and words every answer; this function decides only what
-- must be decided under the lock, and says which:
--   written      the withdrawal, its entry (wallet -> payouts in flight) and its notification are written
--   no_accounts  the wallet or the payouts-in-flight account does not exist yet: nothing is written
--   bank_gone    the bank account was removed meanwhile
--   same         the old client's keyless retry: an identical withdrawal within p_same_within seconds
--   replay       the Idempotency-Key was used already (withdrawal_id is the first request's)
--   insufficient the balance is lower than the amount (balance says what it is)
-- The ledger's own checks (balanced entries, append-only) run at commit as for any other entry.
CREATE FUNCTION request_withdrawal(
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
  SELECT coalesce(sum(p.amount), 0) INTO v_balance FROM postings p WHERE p.ledger_account_id = v_wallet;
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
