import { describe, expect, it } from 'vitest';
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

  it('does not claim transfers yet: they throw "not implemented yet"', async () => {
    const payouts = createPaystackPayouts({ secretKey: 'sk', fetchImpl: fakeFetch(200, {}).fetchImpl });
    await expect(payouts.checkTransfer('ref')).rejects.toThrow(/not implemented yet/);
    expect(() => payouts.parseWebhook(Buffer.from('{}'), {})).toThrow(/not implemented yet/);
  });
});
