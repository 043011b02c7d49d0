import type { DbOrTx } from '../../../db/client';
import type { Config } from '../../../env';
import type { PayoutProvider } from './payout-provider';
import { createPaystackPayouts } from './paystack-payouts';
import { createSandboxPayouts } from './sandbox-payouts';

/** The payout provider PAYMENT_PROVIDER names: the built-in sandbox (which keeps its transfers in db), or Paystack. */
export function createPayoutProvider(config: Config, db: DbOrTx): PayoutProvider {
  return config.PAYMENT_PROVIDER === 'paystack'
    ? createPaystackPayouts({ secretKey: config.PAYSTACK_SECRET_KEY! })
    : createSandboxPayouts({ db });
}
