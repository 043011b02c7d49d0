import { existsSync } from 'node:fs';
import { demoBusinesses, demoCards, demoUsers, DEMO_PASSWORD } from '../tests/fixtures/demo-data';
import { registerBusinessSchema, registerUserSchema } from '../src/shared/accounts/schemas';
import { loadConfig } from '../src/server/env';
import {
  findAccountByEmailAddress as findAccountByEmail,
  registerBusiness,
  registerUser,
} from '../src/server/modules/accounts/accounts.service';
import {
  countOwnCards,
  createGiftCard,
  listOwnCards,
} from '../src/server/modules/catalogue/catalogue.service';
import { createCodeVault, listMyCards, revealCode } from '../src/server/modules/cards/cards.service';
import { sendGift } from '../src/server/modules/cards/gifts.service';
import { redeem } from '../src/server/modules/cards/redemptions.service';
import {
  confirmPayment,
  createPaymentProvider,
  startPurchase,
} from '../src/server/modules/orders/orders.service';
import { openDatabase } from '../src/server/db/database';

/**
 * Fills the database with a demo marketplace through the same services the API uses. Idempotent: an
 * account that exists is left alone. Refuses to run in production.
 */
async function seed(): Promise<void> {
  if (existsSync('.env')) process.loadEnvFile('.env');
  const config = loadConfig();
  if (config.NODE_ENV === 'production') {
    process.stderr.write(
      'db:seed refuses to run with NODE_ENV=production: demo accounts do not belong there.\n',
    );
    process.exit(1);
  }
  const database = await openDatabase(config);
  const deps = { db: database.db, config };
  const created: string[] = [];
  try {
    for (const input of demoBusinesses) {
      if (await findAccountByEmail(database.db, input.email)) continue;
      await registerBusiness(deps, registerBusinessSchema.parse(input));
      created.push(input.email);
    }
    for (const input of demoBusinesses) {
      const business = await findAccountByEmail(database.db, input.email);
      if (!business || (await countOwnCards(deps, business.id)) > 0) continue;
      for (const card of demoCards[input.email] ?? []) await createGiftCard(deps, business.id, card);
      created.push(`${input.email}'s cards`);
    }
    for (const input of demoUsers) {
      if (await findAccountByEmail(database.db, input.email)) continue;
      await registerUser(deps, registerUserSchema.parse(input));
      created.push(input.email);
    }
    // Ada has already bought two cards, through the same purchase path a real checkout takes.
    const ada = await findAccountByEmail(database.db, demoUsers[0]!.email);
    const purchaseDeps = {
      ...deps,
      payments: createPaymentProvider(config, database.db),
      codes: createCodeVault(config.CODE_ENCRYPTION_KEY),
    };
    if (ada && (await listMyCards(purchaseDeps, ada.id, { limit: 1 })).items.length === 0) {
      for (const email of ['kitchen@giftmart.demo', 'books@giftmart.demo']) {
        const business = await findAccountByEmail(database.db, email);
        const [card] = business
          ? (await listOwnCards(deps, business.id, { limit: 1, sort: 'newest' })).items
          : [];
        if (!card || !business) continue;
        const { order } = await startPurchase(purchaseDeps, ada, { giftCardId: card.id });
        await confirmPayment(purchaseDeps, {
          type: 'payment.succeeded',
          reference: order.reference,
          amount: BigInt(order.amount.amount),
          currency: order.amount.currency,
        });
        // She has already had lunch on the kitchen's card: a partial redemption at the till.
        if (email === 'kitchen@giftmart.demo') {
          const paid = (await listMyCards(purchaseDeps, ada.id, { limit: 1 })).items[0]!;
          const { code } = await revealCode(purchaseDeps, ada.id, paid.id);
          await redeem(
            purchaseDeps,
            { businessId: business.id, businessName: business.name, ip: 'seed' },
            { code, amount: 150_000, reference: 'Lunch, table 4' },
          );
        }
      }
      // And she sends the bookshop's card to Tunde, who finds it waiting to be accepted.
      const books = (await listMyCards(purchaseDeps, ada.id, { limit: 5 })).items.find((c) =>
        c.businessName.includes('Bookhouse'),
      );
      if (books) {
        await sendGift(purchaseDeps, { id: ada.id, role: 'user', email: ada.email }, books.id, {
          recipient: demoUsers[1]!.username,
          recipientName: 'Tunde',
          message: 'Happy birthday! Find yourself a good read.',
        });
      }
      created.push("ada's purchases, a lunch and a gift to tunde");
    }
  } finally {
    await database.close();
  }
  const lines = [
    created.length ? `Created: ${created.join(', ')}.` : 'Demo accounts already exist; nothing to do.',
    `Log in with any of these (password "${DEMO_PASSWORD}"):`,
    ...demoBusinesses.map((b) => `  business  ${b.email}  (${b.name})`),
    ...demoUsers.map((u) => `  user      ${u.email}  or username "${u.username}"`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

seed().catch((error: unknown) => {
  process.stderr.write(`db:seed failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
