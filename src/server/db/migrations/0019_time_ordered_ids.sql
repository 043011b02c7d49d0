-- ADR 026: the append-only histories (journal entries, their postings, card activities) take version 7 UUIDs,
-- whose first 48 bits are the Unix time in milliseconds and the rest random as before (RFC 9562), so each new
-- row's key, and the keys that point at it (postings' entry_id), land at one end of their B-tree indexes. With
-- random keys every insert into a large history touched a page of its own in each index, and after each
-- checkpoint wrote that whole page to the WAL first (issue 14: purchases at 1,000,000 ledger entries ran at
-- 0.82-0.89 of their rate at 1,000). Rows written before keep their ids. PostgreSQL 18's own uuidv7() does not
-- exist in 15, so the function is ours (a different name, no clash).
CREATE OR REPLACE FUNCTION uuid_v7() RETURNS uuid AS $$
  SELECT encode(
    set_bit(set_bit(
      overlay(uuid_send(gen_random_uuid())
              PLACING substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3)
              FROM 1 FOR 6),
      52, 1), 53, 1),
    'hex')::uuid
$$ LANGUAGE sql VOLATILE PARALLEL SAFE;
--> statement-breakpoint
ALTER TABLE "card_activities" ALTER COLUMN "id" SET DEFAULT uuid_v7();--> statement-breakpoint
ALTER TABLE "journal_entries" ALTER COLUMN "id" SET DEFAULT uuid_v7();--> statement-breakpoint
ALTER TABLE "postings" ALTER COLUMN "id" SET DEFAULT uuid_v7();