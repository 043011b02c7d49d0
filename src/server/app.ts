import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Db } from './db/client';
import type { Config } from './env';
import { setBatchLimits } from './lib/batch';
import { lazyChildLogger } from './lib/lazy-logger';
import { registerSecurityHeaders } from './plugins/security-headers';
import { accountRoutes } from './modules/accounts/accounts.routes';
import { sessionResolver } from './modules/accounts/accounts.service';
import { profileRoutes } from './modules/accounts/profile.routes';
import { cardsDeletionParticipant } from './modules/cards/account-deletion.service';
import { catalogueDeletionParticipant } from './modules/catalogue/account-deletion.service';
import { notificationsDeletionParticipant } from './modules/notifications/account-deletion.service';
import { walletDeletionParticipant } from './modules/wallet/account-deletion.service';
import { cardRoutes } from './modules/cards/cards.routes';
import { giftRoutes } from './modules/cards/gifts.routes';
import { redemptionRoutes } from './modules/cards/redemptions.routes';
import { salesRoutes } from './modules/cards/sales.routes';
import { soldCardRoutes } from './modules/cards/sold-cards.routes';
import { createCodeVault } from './modules/cards/cards.service';
import { giftCardRoutes } from './modules/catalogue/catalogue.routes';
import { diskStorage, type Storage } from './modules/catalogue/storage';
import { uploadsRoutes } from './modules/catalogue/uploads.routes';
import { legacyAuthRoutes } from './modules/legacy/legacy-auth.routes';
import { legacyCardRoutes } from './modules/legacy/legacy-cards.routes';
import { legacyOrderRoutes } from './modules/legacy/legacy-orders.routes';
import { legacyWithdrawalRoutes } from './modules/legacy/legacy-withdrawals.routes';
import { devMailboxRoutes, notificationRoutes } from './modules/notifications/notifications.routes';
import { checkoutRoutes } from './modules/orders/checkout.routes';
import { purchaseRoutes } from './modules/orders/orders.routes';
import { paymentWebhookHandler } from './modules/orders/orders.service';
import type { PaymentProvider } from './modules/orders/payments/payment-provider';
import { createPaymentProvider } from './modules/orders/payments/payments';
import { bankAccountRoutes } from './modules/wallet/bank-accounts.routes';
import type { PayoutProvider } from './modules/wallet/payouts/payout-provider';
import { createPayoutProvider } from './modules/wallet/payouts/payouts';
import { pinRoutes } from './modules/wallet/pin.routes';
import { statementRoutes } from './modules/wallet/statement.routes';
import { walletRoutes } from './modules/wallet/wallet.routes';
import { withdrawalRoutes } from './modules/wallet/withdrawals.routes';
import { transferWebhookHandler } from './modules/wallet/withdrawals.service';
import { logRedaction } from './lib/log-redaction';
import { responseSerializerCompiler } from './lib/response-serializer';
import { registerAuth } from './plugins/auth';
import { clientErrorHandler, registerErrorHandling, sendError } from './plugins/errors';
import { configRoutes, healthRoutes, publicConfigOf } from './plugins/meta';
import { registerOpenApi } from './plugins/openapi';
import { readBuiltWeb, registerWeb } from './plugins/web';
import { webhookRoutes, type WebhookHandler } from './plugins/webhooks';

export interface AppOptions {
  config: Config;
  db: Db;
  /** Folder of the built web app (dist/web); omitted in API tests. */
  webRoot?: string;
  /** Where uploads go; defaults to DATA_DIR/uploads on disk. */
  storage?: Storage;
  /** The payment provider; defaults to the one PAYMENT_PROVIDER names. */
  payments?: PaymentProvider;
  /** The payout provider (bank name resolution, transfers); defaults to the one PAYMENT_PROVIDER names. */
  payouts?: PayoutProvider;
  logger?: boolean;
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: { write(line: string): void };
}

function trustHops(hops: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < hops;
}

/** Builds the whole app without listening, so tests can call `app.inject()`. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, db } = options;
  // Before any room makes a batch on this pool (ADR 027).
  setBatchLimits(db, {
    maxInFlight: config.DATABASE_BATCHES_IN_FLIGHT,
    gatherMs: config.DATABASE_BATCH_GATHER_MS,
  });
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: config.LOG_LEVEL,
            ...logRedaction,
            ...(options.logStream ? { stream: options.logStream } : {}),
          },
    // A hop count trusts that many proxies from this server outward, so the address is the one the nearest
    // proxy saw, never the leftmost X-Forwarded-For entry a client wrote (Fastify's types omit the number form).
    trustProxy: typeof config.TRUST_PROXY === 'number' ? trustHops(config.TRUST_PROXY) : config.TRUST_PROXY,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    childLoggerFactory: lazyChildLogger,
    bodyLimit: 1024 * 1024,
    // Errors Fastify and Node raise before any route runs answer in the API's shape too (issue 12).
    frameworkErrors: sendError,
    clientErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler);
  registerErrorHandling(app);
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });

  // Read once at start: the pages it serves, and their inline scripts that the CSP allows by their hashes.
  const web = readBuiltWeb(options.webRoot, publicConfigOf(config));
  await app.register(registerSecurityHeaders, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...(web?.scriptSources ?? [])],
        // SweetAlert2 and React style attributes need inline styles; scripts stay strictly same-origin.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        // The till's QR scanner (qr-scanner, loaded on demand) decodes in a worker it starts from a blob URL.
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        baseUri: ["'self'"],
        upgradeInsecureRequests: config.NODE_ENV === 'production' ? [] : null,
      },
    },
    hsts: config.NODE_ENV === 'production',
  });
  await app.register(compress, { threshold: 1024 });
  await app.register(cookie);
  await registerOpenApi(app);

  const deps = {
    config,
    db,
    storage: options.storage ?? diskStorage(path.join(config.DATA_DIR, 'uploads')),
    payments: options.payments ?? createPaymentProvider(config, db),
    payouts: options.payouts ?? createPayoutProvider(config, db),
    codes: createCodeVault(config.CODE_ENCRYPTION_KEY),
  };
  // One webhook address per provider: payments first, then (when the same provider pays out) transfers.
  const webhookHandlers: WebhookHandler[] = [paymentWebhookHandler(deps)];
  if (deps.payouts.name === deps.payments.name) webhookHandlers.push(transferWebhookHandler(deps));
  const sessions = sessionResolver(deps, app.log);
  app.addHook('onClose', async () => sessions.close());
  await app.register(registerAuth, { config, resolveToken: sessions.resolveToken });
  await app.register(healthRoutes, { prefix: '/api', ...deps });
  await app.register(
    async (v1) => {
      await v1.register(configRoutes, deps);
      await v1.register(accountRoutes, deps);
      await v1.register(profileRoutes, {
        ...deps,
        // Each room that keeps something of an account takes part in deleting it (lib/account-deletion.ts).
        deletionParticipants: [
          cardsDeletionParticipant,
          walletDeletionParticipant,
          catalogueDeletionParticipant,
          notificationsDeletionParticipant,
        ],
      });
      await v1.register(walletRoutes, deps);
      await v1.register(statementRoutes, deps);
      await v1.register(pinRoutes, deps);
      await v1.register(bankAccountRoutes, deps);
      await v1.register(giftCardRoutes, deps);
      await v1.register(purchaseRoutes, deps);
      await v1.register(cardRoutes, deps);
      await v1.register(redemptionRoutes, deps);
      await v1.register(soldCardRoutes, deps);
      await v1.register(salesRoutes, deps);
      await v1.register(giftRoutes, deps);
      await v1.register(webhookRoutes, { provider: deps.payments.name, handlers: webhookHandlers });
      await v1.register(withdrawalRoutes, deps);
      await v1.register(notificationRoutes, deps);
    },
    { prefix: '/api/v1' },
  );
  await app.register(devMailboxRoutes, { prefix: '/api/dev', ...deps });
  await app.register(legacyAuthRoutes, { prefix: '/api', ...deps });
  await app.register(legacyCardRoutes, { prefix: '/api', ...deps });
  await app.register(legacyOrderRoutes, { prefix: '/api', ...deps });
  await app.register(legacyWithdrawalRoutes, { prefix: '/api', ...deps });
  await app.register(uploadsRoutes, deps);
  if (deps.payments.name === 'sandbox') await app.register(checkoutRoutes, deps);
  await registerWeb(app, web);
  return app;
}
