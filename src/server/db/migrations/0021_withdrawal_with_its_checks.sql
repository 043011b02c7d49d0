-- Issue 14 (ADR 017, "Later"): a withdrawal in one statement in the common case. The request read the keyed
-- withdrawal, the bank account and the PIN in one statement, checked them in the app, then called
-- request_withdrawal in a second. This function takes those reads into the call for the case that needs no
-- decision of the app's: no earlier withdrawal under the key, a live bank account (the one named, or the
-- default), and a PIN with no wrong tries, no lock, no block and a keyed hash equal to the one the app made
-- from the PIN typed. Anything else answers 'check' with the bank account it read (if any), and the app
-- decides from there (it counts a wrong PIN, reports a lock, rewrites an old hash, names the missing bank
-- account), as it did after its own read.
--
-- The hashes are compared here with `=`, not in constant time: the app derives the hash from the PIN under a
-- server key, so how much of it matches tells a guesser nothing about the PIN; and a wrong PIN goes on to the
-- app's check, where it is counted.
--
-- The news is the app's, with `{bank}` where the bank account goes: its bank name and the number's last four
-- digits, as the app writes them (withdrawals.service.ts, bankLabel), known only once the account is read.
CREATE FUNCTION request_withdrawal_checked(
  p_business uuid,
  p_currency text,
  p_bank uuid,
  p_amount bigint,
  p_reference text,
  p_key text,
  p_fingerprint text,
  p_same_within int,
  p_pin_hash text,
  p_news jsonb
) RETURNS TABLE (
  outcome text,
  withdrawal_id uuid,
  balance bigint,
  created_at timestamptz,
  bank_id uuid,
  bank_code text,
  bank_name text,
  account_number text,
  account_name text,
  is_default boolean,
  bank_created_at timestamptz
)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_keyed uuid;
  v_bank uuid;
  v_bank_code text;
  v_bank_name text;
  v_account_number text;
  v_account_name text;
  v_is_default boolean;
  v_bank_created timestamptz;
  v_pin_ok boolean;
  v_news jsonb;
BEGIN
  SELECT w.id, b.id, b.bank_code, b.bank_name, b.account_number, b.account_name, b.is_default, b.created_at,
         p.account_id IS NOT NULL
    INTO v_keyed, v_bank, v_bank_code, v_bank_name, v_account_number, v_account_name, v_is_default,
         v_bank_created, v_pin_ok
    FROM (SELECT 1) AS one
    LEFT JOIN withdrawals w ON w.business_id = p_business AND w.idempotency_key = p_key
    LEFT JOIN bank_accounts b
      ON b.business_id = p_business AND b.removed_at IS NULL
     AND CASE WHEN p_bank IS NULL THEN b.is_default ELSE b.id = p_bank END
    LEFT JOIN transaction_pins p
      ON p.account_id = p_business AND p.pin_hash = p_pin_hash AND p.failed_attempts = 0
     AND p.locked_until IS NULL AND p.reset_required_at IS NULL;
  IF v_keyed IS NOT NULL THEN
    RETURN QUERY SELECT 'replay'::text, v_keyed, NULL::bigint, NULL::timestamptz, NULL::uuid, NULL::text,
      NULL::text, NULL::text, NULL::text, NULL::boolean, NULL::timestamptz;
    RETURN;
  END IF;
  IF v_bank IS NULL OR NOT v_pin_ok THEN
    RETURN QUERY SELECT 'check'::text, NULL::uuid, NULL::bigint, NULL::timestamptz, v_bank, v_bank_code,
      v_bank_name, v_account_number, v_account_name, v_is_default, v_bank_created;
    RETURN;
  END IF;
  SELECT jsonb_agg(jsonb_set(n, '{body}',
           to_jsonb(replace(n ->> 'body', '{bank}', v_bank_name || ' ••' || right(v_account_number, 4)))))
    INTO v_news FROM jsonb_array_elements(p_news) AS n;
  RETURN QUERY
    SELECT r.outcome, r.withdrawal_id, r.balance, r.created_at, v_bank, v_bank_code, v_bank_name,
           v_account_number, v_account_name, v_is_default, v_bank_created
      FROM request_withdrawal(p_business, p_currency, v_bank, p_amount, p_reference, p_key, p_fingerprint,
                              p_same_within, coalesce(v_news, '[]'::jsonb)) AS r;
END;
$$;
