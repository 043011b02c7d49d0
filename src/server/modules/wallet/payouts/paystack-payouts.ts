import { constantTimeEqual } from '../../../lib/crypto';
import {
  header,
  InvalidSignatureError,
  PAYSTACK_API,
  PAYSTACK_SIGNATURE_HEADER,
  signPaystack,
} from '../../../lib/providers';
import type { PayoutProvider, TransferState } from './payout-provider';

class PaystackError extends Error {}

/** Paystack transfer statuses: success, failed, reversed, abandoned, or still on the way (pending, otp, …). */
function toState(data: { status: string; transfer_code?: string; reason?: string }): TransferState {
  const transferCode = data.transfer_code;
  if (data.status === 'success') return { status: 'success', transferCode };
  if (['failed', 'reversed', 'abandoned', 'rejected', 'blocked'].includes(data.status)) {
    return { status: 'failed', reason: data.reason || `The transfer was ${data.status}.`, transferCode };
  }
  return { status: 'pending', transferCode };
}

type Fetch = typeof fetch;

/** Paystack says 422 "Could not resolve account name" (or 400) when the bank has no such account. */
const NO_SUCH_ACCOUNT = new Set([400, 404, 422]);

/**
 * Paystack payouts (https://paystack.com/docs/transfers/single-transfers/): account names from
 * GET /bank/resolve; a transfer creates a `nuban` transfer recipient, then POST /transfer with our unique
 * reference and the amount in kobo; GET /transfer/verify/:reference reports its state; the
 * transfer.success, transfer.failed and transfer.reversed webhooks (signed like charges, HMAC-SHA512 in
 * x-paystack-signature) report the outcome. Paystack refuses a second transfer with the same reference,
 * which keeps payouts exactly-once.
 *
 * `fetchImpl` is injectable so request building is tested without the network.
 */
export function createPaystackPayouts(deps: { secretKey: string; fetchImpl?: Fetch }): PayoutProvider {
  const doFetch = deps.fetchImpl ?? fetch;

  async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const response = await doFetch(`${PAYSTACK_API}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${deps.secretKey}`,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    const json = (await response.json().catch(() => ({}))) as {
      status?: boolean;
      message?: string;
      data?: T;
    };
    if (!response.ok || !json.status || !json.data)
      throw new PaystackError(`${path}: ${response.status} ${json.message ?? ''}`.trim());
    return json.data;
  }

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
    async transfer(transfer) {
      const recipient = await call<{ recipient_code: string }>('POST', '/transferrecipient', {
        type: 'nuban',
        name: transfer.accountName,
        account_number: transfer.accountNumber,
        bank_code: transfer.bankCode,
        currency: transfer.currency,
      });
      try {
        const data = await call<{ status: string; transfer_code?: string; reason?: string }>(
          'POST',
          '/transfer',
          {
            source: 'balance',
            amount: transfer.amount.toString(),
            currency: transfer.currency,
            recipient: recipient.recipient_code,
            reference: transfer.reference,
            reason: transfer.reason,
          },
        );
        return toState(data);
      } catch (error) {
        // A retry after a crash: Paystack already has this reference, so ask it what became of that transfer.
        if (error instanceof PaystackError && /duplicate/i.test(error.message))
          return this.checkTransfer(transfer.reference);
        throw error;
      }
    },
    async checkTransfer(reference) {
      const data = await call<{ status: string; transfer_code?: string; reason?: string }>(
        'GET',
        `/transfer/verify/${encodeURIComponent(reference)}`,
      );
      return toState(data);
    },
    parseWebhook(rawBody, headers) {
      const signature = header(headers, PAYSTACK_SIGNATURE_HEADER) ?? '';
      if (!constantTimeEqual(signature, signPaystack(deps.secretKey, rawBody))) {
        throw new InvalidSignatureError('x-paystack-signature does not match');
      }
      const body = JSON.parse(rawBody.toString('utf8')) as {
        event: string;
        data: { reference: string; reason?: string };
      };
      if (body.event === 'transfer.success')
        return { type: 'transfer.success', reference: body.data.reference };
      if (body.event === 'transfer.failed') {
        return {
          type: 'transfer.failed',
          reference: body.data.reference,
          reason: 'The bank could not complete the transfer.',
        };
      }
      // Paystack may send it after transfer.success: the money came back, so it goes back to the wallet.
      if (body.event === 'transfer.reversed') {
        return {
          type: 'transfer.reversed',
          reference: body.data.reference,
          reason: 'The bank reversed the transfer.',
        };
      }
      return { type: 'ignored', event: body.event };
    },
  };
}
