-- Issue 14 (ADR 027): sales confirmed together in one statement, each written on the order as it was read
-- without a lock. The statement's writes cannot each be made to depend on every other's condition, so it
-- checks them all at its end and refuses as a whole when one does not hold (an order no longer pending, a
-- business's first sale, whose ledger accounts do not exist yet): nothing of it is written, and the app
-- completes each of those sales on its locked path. A refusal has its own SQLSTATE, ZG001 (class ZG is
-- PostgreSQL's implementation-defined space and unused by it), so the app tells it from any other error.
CREATE FUNCTION refuse_unless(p_ok boolean, p_why text) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
  IF p_ok IS NOT TRUE THEN
    RAISE EXCEPTION '%', p_why USING ERRCODE = 'ZG001';
  END IF;
  RETURN true;
END;
$$;
