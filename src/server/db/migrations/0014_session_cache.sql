-- Issue 14: every app instance keeps the sessions it has looked up and forgets them all when anything a
-- request decides on changes: a session revoked or its expiry moved, or any change to an account (name,
-- e-mail, password, deletion). Announced on this channel, at commit, to every instance that LISTENs.
-- "Last seen" (written at most once a minute per session) is left out: no request decides on it.
CREATE FUNCTION sessions_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('giftmart_sessions', '');
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER sessions_changed
  AFTER UPDATE ON sessions
  FOR EACH ROW
  WHEN ((to_jsonb(OLD) - 'last_seen_at') IS DISTINCT FROM (to_jsonb(NEW) - 'last_seen_at'))
  EXECUTE FUNCTION sessions_changed();
--> statement-breakpoint
CREATE TRIGGER sessions_deleted
  AFTER DELETE OR TRUNCATE ON sessions
  FOR EACH STATEMENT EXECUTE FUNCTION sessions_changed();
--> statement-breakpoint
CREATE TRIGGER accounts_sessions_changed
  AFTER UPDATE OR DELETE OR TRUNCATE ON accounts
  FOR EACH STATEMENT EXECUTE FUNCTION sessions_changed();
