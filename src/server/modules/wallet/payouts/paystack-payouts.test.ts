import { describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { InvalidSignatureError } from '../../../lib/providers';
import { createPaystackPayouts } from './paystack-payouts';

/** Paystack payouts: account-name resolution request building, with an injected fetch (no network). */
function fakeFetch(status: number, body: unknown) {
  const requests: { url: string; init: RequestInit | undefined }[] = [];
  const fetchImpl = (async (input: string | URL | Request, init?: RequestInit) => {
    requests.push({ url: String(input), init });
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  return { fetchImpl, requests };
}

describe('Paystack resolveAccount', () => {
  it('GETs /bank/resolve with the account number and bank code, the secret key as Bearer, and reads the name', async () => {
    const { fetchImpl, requests } = fakeFetch(200, {
      status: true,
      message: 'Account number resolved',
      data: { account_number: '0152451605', account_name: ' ADAEZE OKAFOR ', bank_id: 9 },
    });
    const payouts = createPaystackPayouts({ secretKey: 'sk_test_abc', fetchImpl });
    await expect(payouts.resolveAccount('058', '0152451605')).resolves.toEqual({
      accountName: 'ADAEZE OKAFOR',
    });
    expect(requests).toHaveLength(1);
    const url = new URL(requests[0]!.url);
    expect(`${url.origin}${url.pathname}`).toBe('https://api.paystack.co/bank/resolve');
    expect(Object.fromEntries(url.searchParams)).toEqual({ account_number: '0152451605', bank_code: '058' });
    expect(requests[0]!.init?.method ?? 'GET').toBe('GET');
    expect(new Headers(requests[0]!.init?.headers).get('authorization')).toBe('Bearer sk_test_abc');
    expect(requests[0]!.init?.body).toBeUndefined();
  });

  it('encodes its parameters (never builds the query by concatenation)', async () => {
    const { fetchImpl, requests } = fakeFetch(200, { status: true, data: { account_name: 'X' } });
    await createPaystackPayouts({ secretKey: 'sk', fetchImpl }).resolveAccount('05&8', '01 2');
    const url = new URL(requests[0]!.url);
    expect(url.searchParams.get('bank_code')).toBe('05&8');
    expect(url.searchParams.get('account_number')).toBe('01 2');
  });

  it('reads "could not resolve" (422) as no such account', async () => {
    const { fetchImpl } = fakeFetch(422, {
      status: false,
      message: 'Could not resolve account name. Check parameters or try again.',
    });
    await expect(
      createPaystackPayouts({ secretKey: 'sk', fetchImpl }).resolveAccount('058', '0000000000'),
    ).resolves.toBeNull();
  });

  it('throws for other failures (bad key, Paystack down), so the caller reports a provider error', async () => {
    const unauthorised = fakeFetch(401, { status: false, message: 'Invalid key' });
    await expect(
      createPaystackPayouts({ secretKey: 'sk', fetchImpl: unauthorised.fetchImpl }).resolveAccount(
        '058',
        '0152451605',
      ),
    ).rejects.toThrow(/401 Invalid key/);
    const down = fakeFetch(503, {});
    await expect(
      createPaystackPayouts({ secretKey: 'sk', fetchImpl: down.fetchImpl }).resolveAccount(
        '058',
        '0152451605',
      ),
    ).rejects.toThrow(/503/);
  });
});

/** A fetch that answers each request in turn from a list (Paystack's documented response shapes). */
function scriptedFetch(answers: { status: number; body: unknown }[]) {
  const requests: { url: string; init: RequestInit | undefined }[] = [];
  const fetchImpl = (async (input: string | URL | Request, init?: RequestInit) => {
    requests.push({ url: String(input), init });
    const answer = answers[requests.length - 1] ?? { status: 500, body: {} };
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'content-type': 'application/json' },
    });
  }) as typeof fetch;
  return { fetchImpl, requests };
}

const transfer = {
  reference: 'WD-ABC123',
  amount: 150_000n,
  currency: 'NGN',
  bankCode: '058',
  accountNumber: '0152451605',
  accountName: 'ADAEZE OKAFOR',
  reason: 'Giftmart wallet withdrawal',
};

describe('Paystack transfers', () => {
  it('creates a nuban recipient, then POSTs /transfer with our reference and the amount in kobo', async () => {
    const { fetchImpl, requests } = scriptedFetch([
      {
        status: 201,
        body: {
          status: true,
          message: 'Transfer recipient created',
          data: { recipient_code: 'RCP_1a2b3c', type: 'nuban' },
        },
      },
      {
        status: 200,
        body: {
          status: true,
          message: 'Transfer has been queued',
          data: { status: 'pending', transfer_code: 'TRF_9z8y', reference: 'WD-ABC123' },
        },
      },
    ]);
    const payouts = createPaystackPayouts({ secretKey: 'sk_test_abc', fetchImpl });
    await expect(payouts.transfer(transfer)).resolves.toEqual({
      status: 'pending',
      transferCode: 'TRF_9z8y',
    });
    expect(requests.map((r) => r.url)).toEqual([
      'https://api.paystack.co/transferrecipient',
      'https://api.paystack.co/transfer',
    ]);
    expect(JSON.parse(String(requests[0]!.init?.body))).toEqual({
      type: 'nuban',
      name: 'ADAEZE OKAFOR',
      account_number: '0152451605',
      bank_code: '058',
      currency: 'NGN',
    });
    expect(JSON.parse(String(requests[1]!.init?.body))).toEqual({
      source: 'balance',
      amount: '150000',
      currency: 'NGN',
      recipient: 'RCP_1a2b3c',
      reference: 'WD-ABC123',
      reason: 'Giftmart wallet withdrawal',
    });
    expect(new Headers(requests[1]!.init?.headers).get('authorization')).toBe('Bearer sk_test_abc');
  });

  it('a retried transfer with a reference Paystack already has asks /transfer/verify instead of sending again', async () => {
    const { fetchImpl, requests } = scriptedFetch([
      { status: 201, body: { status: true, data: { recipient_code: 'RCP_1' } } },
      { status: 400, body: { status: false, message: 'Duplicate Transfer Reference' } },
      {
        status: 200,
        body: { status: true, data: { status: 'success', transfer_code: 'TRF_1', reference: 'WD-ABC123' } },
      },
    ]);
    const payouts = createPaystackPayouts({ secretKey: 'sk', fetchImpl });
    await expect(payouts.transfer(transfer)).resolves.toEqual({ status: 'success', transferCode: 'TRF_1' });
    expect(requests[2]!.url).toBe('https://api.paystack.co/transfer/verify/WD-ABC123');
  });

  it('reads failed and reversed states as failures with a reason', async () => {
    const { fetchImpl } = scriptedFetch([
      { status: 200, body: { status: true, data: { status: 'reversed', reason: '' } } },
    ]);
    const payouts = createPaystackPayouts({ secretKey: 'sk', fetchImpl });
    await expect(payouts.checkTransfer('WD-1')).resolves.toMatchObject({
      status: 'failed',
      reason: 'The transfer was reversed.',
    });
  });

  it('verifies transfer webhooks with x-paystack-signature and reads success, failure and reversal', () => {
    const payouts = createPaystackPayouts({
      secretKey: 'sk_test_abc',
      fetchImpl: scriptedFetch([]).fetchImpl,
    });
    const signed = (event: object) => {
      const raw = Buffer.from(JSON.stringify(event));
      return {
        raw,
        headers: { 'x-paystack-signature': createHmac('sha512', 'sk_test_abc').update(raw).digest('hex') },
      };
    };
    const success = signed({
      event: 'transfer.success',
      data: { reference: 'WD-1', amount: 150000, status: 'success' },
    });
    expect(payouts.parseWebhook(success.raw, success.headers)).toEqual({
      type: 'transfer.success',
      reference: 'WD-1',
    });
    const failed = signed({ event: 'transfer.failed', data: { reference: 'WD-2', status: 'failed' } });
    expect(payouts.parseWebhook(failed.raw, failed.headers)).toMatchObject({
      type: 'transfer.failed',
      reference: 'WD-2',
    });
    const reversed = signed({ event: 'transfer.reversed', data: { reference: 'WD-3', status: 'reversed' } });
    expect(payouts.parseWebhook(reversed.raw, reversed.headers)).toMatchObject({
      type: 'transfer.reversed',
      reason: /reversed/,
    });
    const charge = signed({ event: 'charge.success', data: { reference: 'GM-1' } });
    expect(payouts.parseWebhook(charge.raw, charge.headers)).toEqual({
      type: 'ignored',
      event: 'charge.success',
    });
    expect(() => payouts.parseWebhook(success.raw, { 'x-paystack-signature': 'bad' })).toThrow(
      InvalidSignatureError,
    );
    const tampered = Buffer.from(success.raw.toString().replace('WD-1', 'WD-9'));
    expect(() => payouts.parseWebhook(tampered, success.headers)).toThrow(InvalidSignatureError);
  });
});
