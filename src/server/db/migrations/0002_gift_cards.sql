CREATE TABLE "gift_cards" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"business_id" uuid NOT NULL,
	"unique_id" text NOT NULL,
	"amount" bigint NOT NULL,
	"currency" text NOT NULL,
	"colour" text NOT NULL,
	"on_sale" boolean DEFAULT true NOT NULL,
	"sold_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gift_cards_amount_positive" CHECK ("gift_cards"."amount" > 0),
	CONSTRAINT "gift_cards_colour_hex" CHECK ("gift_cards"."colour" ~ '^#[0-9a-f]{6}$'),
	CONSTRAINT "gift_cards_sold_count_nonnegative" CHECK ("gift_cards"."sold_count" >= 0)
);
--> statement-breakpoint
ALTER TABLE "gift_cards" ADD CONSTRAINT "gift_cards_business_id_accounts_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "gift_cards_unique_id_unique" ON "gift_cards" USING btree ("unique_id");--> statement-breakpoint
CREATE INDEX "gift_cards_catalogue_idx" ON "gift_cards" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "gift_cards"."on_sale";--> statement-breakpoint
CREATE INDEX "gift_cards_business_catalogue_idx" ON "gift_cards" USING btree ("business_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "gift_cards"."on_sale";--> statement-breakpoint
CREATE INDEX "gift_cards_business_idx" ON "gift_cards" USING btree ("business_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);