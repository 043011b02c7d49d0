CREATE TYPE "public"."gift_status" AS ENUM('scheduled', 'pending', 'accepted', 'declined', 'cancelled', 'expired');--> statement-breakpoint
ALTER TYPE "public"."card_activity_kind" ADD VALUE 'gift_sent';--> statement-breakpoint
ALTER TYPE "public"."card_activity_kind" ADD VALUE 'gift_returned';--> statement-breakpoint
ALTER TYPE "public"."purchased_card_status" ADD VALUE 'gift_pending';--> statement-breakpoint
CREATE TABLE "gifts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"purchased_card_id" uuid NOT NULL,
	"sender_id" uuid NOT NULL,
	"recipient_account_id" uuid,
	"recipient_email" text NOT NULL,
	"recipient_label" text NOT NULL,
	"recipient_name" text,
	"message" text,
	"deliver_at" timestamp with time zone,
	"status" "gift_status" NOT NULL,
	"token_hash" text,
	"expires_at" timestamp with time zone,
	"order_id" uuid,
	"token_used" boolean DEFAULT false NOT NULL,
	"sent_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gifts_message_length" CHECK ("gifts"."message" IS NULL OR char_length("gifts"."message") <= 500)
);
--> statement-breakpoint
CREATE TABLE "mail_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"to_address" text NOT NULL,
	"account_id" uuid,
	"subject" text NOT NULL,
	"content" jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "notifications_account_idx";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "gift" jsonb;--> statement-breakpoint
ALTER TABLE "gifts" ADD CONSTRAINT "gifts_purchased_card_id_purchased_cards_id_fk" FOREIGN KEY ("purchased_card_id") REFERENCES "public"."purchased_cards"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gifts" ADD CONSTRAINT "gifts_sender_id_accounts_id_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gifts" ADD CONSTRAINT "gifts_recipient_account_id_accounts_id_fk" FOREIGN KEY ("recipient_account_id") REFERENCES "public"."accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gifts" ADD CONSTRAINT "gifts_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "gifts_open_card_unique" ON "gifts" USING btree ("purchased_card_id") WHERE "gifts"."status" IN ('scheduled', 'pending');--> statement-breakpoint
CREATE UNIQUE INDEX "gifts_token_hash_unique" ON "gifts" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "gifts_order_unique" ON "gifts" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "gifts_sender_idx" ON "gifts" USING btree ("sender_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "gifts_recipient_idx" ON "gifts" USING btree ("recipient_account_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "gifts_recipient_email_idx" ON "gifts" USING btree ("recipient_email","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "gifts_due_idx" ON "gifts" USING btree ("deliver_at") WHERE "gifts"."status" = 'scheduled';--> statement-breakpoint
CREATE INDEX "gifts_expiry_idx" ON "gifts" USING btree ("expires_at") WHERE "gifts"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "mail_outbox_due_idx" ON "mail_outbox" USING btree ("next_attempt_at") WHERE "mail_outbox"."status" = 'queued';--> statement-breakpoint
CREATE INDEX "mail_outbox_created_idx" ON "mail_outbox" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "notifications_unread_idx" ON "notifications" USING btree ("account_id") WHERE "notifications"."read_at" IS NULL;--> statement-breakpoint
CREATE INDEX "notifications_account_idx" ON "notifications" USING btree ("account_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
-- Every change to an account's notifications (a new one, one read) is announced on the channel
-- giftmart_notifications with the account's id, at commit: each app instance LISTENs and pushes the new
-- unread count to that account's open pages (Server-Sent Events). A rolled-back event announces nothing.
CREATE OR REPLACE FUNCTION notifications_announce() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('giftmart_notifications', NEW.account_id::text);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER notifications_announce AFTER INSERT OR UPDATE OF read_at ON notifications
  FOR EACH ROW EXECUTE FUNCTION notifications_announce();
