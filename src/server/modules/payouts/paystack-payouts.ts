import { PAYSTACK_API } from '../payments/paystack.provider';
import type { PayoutProvider } from './payout-provider';

type Fetch = typeof fetch;

/** Paystack says 422 "Could not resolve account name" (or 400) when the bank has no such account. */
const NO_SUCH_ACCOUNT = new Set([400, 404, 422]);

/**
 * Paystack payouts. Only account-name resolution is implemented so far
 * (https://paystack.com/docs/identity-verification/verify-account-number/):
 * GET /bank/resolve?account_number=…&bank_code=… with the secret key as a Bearer token.
 *
 * NOT DONE YET: transfer, checkTransfer and parseWebhook throw "not implemented yet". They belong to the
 * withdrawals work (transfer recipients, POST /transfer with our reference, GET /transfer/verify/:reference,
 * transfer.success/transfer.failed webhooks signed like charges). Until then PAYMENT_PROVIDER=paystack can
 * resolve and save bank accounts but cannot pay out.
 *
 * `fetchImpl` is injectable so request building is tested without the network.
 */
export function createPaystackPayouts(deps: { secretKey: string; fetchImpl?: Fetch }): PayoutProvider {
  const doFetch = deps.fetchImpl ?? fetch;
  return {
    name: 'paystack',
    async resolveAccount(bankCode, accountNumber) {
      const query = new URLSearchParams({ account_number: accountNumber, bank_code: bankCode });
      const response = await doFetch(`${PAYSTACK_API}/bank/resolve?${query.toString()}`, {
        method: 'GET',
        headers: { authorization: `Bearer ${deps.secretKey}`, accept: 'application/json' },
        signal: AbortSignal.timeout(15_000),
      });
      const json = (await response.json().catch(() => ({}))) as {
        status?: boolean;
        message?: string;
        data?: { account_name?: string | null; account_number?: string };
      };
      if (response.ok && json.status && json.data?.account_name) {
        return { accountName: json.data.account_name.trim() };
      }
      if (NO_SUCH_ACCOUNT.has(response.status) || (response.ok && json.status === false)) return null;
      throw new Error(`Paystack /bank/resolve failed: ${response.status} ${json.message ?? ''}`.trim());
    },
    transfer() {
      return Promise.reject(new Error('Paystack transfers are not implemented yet'));
    },
    checkTransfer() {
      return Promise.reject(new Error('Paystack transfer checks are not implemented yet'));
    },
    parseWebhook() {
      throw new Error('Paystack transfer webhooks are not implemented yet');
    },
  };
}
