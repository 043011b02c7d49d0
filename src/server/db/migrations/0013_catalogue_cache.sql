-- Issue 14: every app instance keeps the catalogue's pages ready to send and drops them when anything a page
-- shows changes. Any change to gift cards (a new design, on or off sale, sold counts) or to a business's name
-- or logo announces it on this channel, at commit, to every instance that LISTENs.
CREATE FUNCTION catalogue_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('giftmart_catalogue', '');
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER gift_cards_catalogue_changed
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON gift_cards
  FOR EACH STATEMENT EXECUTE FUNCTION catalogue_changed();
--> statement-breakpoint
CREATE TRIGGER accounts_catalogue_changed
  AFTER UPDATE OF name, logo_key ON accounts
  FOR EACH ROW
  WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.logo_key IS DISTINCT FROM NEW.logo_key)
  EXECUTE FUNCTION catalogue_changed();
--> statement-breakpoint
CREATE TRIGGER accounts_catalogue_deleted
  AFTER DELETE ON accounts
  FOR EACH STATEMENT EXECUTE FUNCTION catalogue_changed();
