-- Issue 14: the wallet statement's pages read an account's postings in the ledger's order (transaction, then id)
-- from this index, and the sum of the postings above a page from the index alone, so a page no longer costs a
-- running sum over the account's whole history (statement.repository.ts). The balance's read of the postings
-- since the fold (ledger_balance(), 0017) uses the same index as before, by its first two columns.
DROP INDEX "postings_ledger_account_xact_idx";--> statement-breakpoint
CREATE INDEX "postings_ledger_account_xact_idx" ON "postings" USING btree ("ledger_account_id","xact","id","amount");
