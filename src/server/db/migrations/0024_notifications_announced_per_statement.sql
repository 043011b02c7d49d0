-- Issue 14: new notifications are announced once per statement, not once per row. A sale's statement writes
-- two notifications per sale for up to 64 sales (ADR 027), and each row's announcement was a trigger call of
-- its own (a PL/pgSQL call and a query, about 2 % of PostgreSQL's time per purchase). The statement's trigger
-- announces each account once, from the rows it wrote (a transition table). Nothing a listener sees changes:
-- PostgreSQL already delivers one notification per channel and payload per transaction, at its commit, and
-- nothing if it rolls back. A notification read (UPDATE OF read_at) keeps its row trigger: a trigger with
-- transition tables cannot name columns.
DROP TRIGGER notifications_announce ON notifications;--> statement-breakpoint
CREATE TRIGGER notifications_announce AFTER UPDATE OF read_at ON notifications
  FOR EACH ROW EXECUTE FUNCTION notifications_announce();--> statement-breakpoint
CREATE FUNCTION notifications_announce_new() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('giftmart_notifications', account_id::text)
     FROM (SELECT DISTINCT account_id FROM new_notifications) AS written;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER notifications_announce_new AFTER INSERT ON notifications
  REFERENCING NEW TABLE AS new_notifications
  FOR EACH STATEMENT EXECUTE FUNCTION notifications_announce_new();
