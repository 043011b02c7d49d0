import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { listCatalogue, fetchCatalogueEarly } from '../features/catalogue/api';
import { api, fetchEarly } from './api';

const page = (name: string) => ({ items: [{ name }], nextCursor: null });

describe('a screen opened by its address fetches its first data at start-up (api.ts fetchEarly)', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    vi.useFakeTimers();
    fetchMock.mockReset();
    fetchMock.mockImplementation(async (input) =>
      Response.json(page(`answer to ${String(input)} #${fetchMock.mock.calls.length}`)),
    );
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('the screen takes the early answer once, without asking again; its next request asks the server', async () => {
    fetchCatalogueEarly('');
    fetchCatalogueEarly(''); // preloaded twice (a re-render): still one request
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/v1/gift-cards?limit=24');

    await expect(listCatalogue('')).resolves.toEqual(page('answer to /api/v1/gift-cards?limit=24 #1'));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await expect(listCatalogue('')).resolves.toEqual(page('answer to /api/v1/gift-cards?limit=24 #2'));
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('a search or another page is not answered with the first page', async () => {
    fetchCatalogueEarly('');
    await listCatalogue('coffee');
    await listCatalogue('', 'cursor-1');
    expect(fetchMock.mock.calls.map((call) => call[0])).toEqual([
      '/api/v1/gift-cards?limit=24',
      '/api/v1/gift-cards?limit=24&q=coffee',
      '/api/v1/gift-cards?limit=24&cursor=cursor-1',
    ]);
    // The early first page is still there for the screen that wants it.
    await listCatalogue('');
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it('an answer older than 10 seconds is not used: the screen asks again', async () => {
    fetchEarly('/api/v1/notifications');
    vi.advanceTimersByTime(10_001);
    await api('/api/v1/notifications');
    expect(fetchMock).toHaveBeenCalledTimes(2);
    fetchEarly('/api/v1/notifications');
    vi.advanceTimersByTime(9_000);
    await api('/api/v1/notifications');
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it('only a plain GET of the same path takes it: a write, or a GET with its own headers, asks the server', async () => {
    fetchEarly('/api/v1/notifications');
    await api('/api/v1/notifications', { method: 'POST', body: {} });
    await api('/api/v1/notifications', { headers: { 'x-extra': '1' } });
    expect(fetchMock).toHaveBeenCalledTimes(3);
    await api('/api/v1/notifications');
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it('an early error reaches the screen as its own would, and nothing is left unhandled', async () => {
    fetchMock.mockImplementation(async () =>
      Response.json({ code: 'RATE_LIMITED', message: 'Slow down.' }, { status: 429 }),
    );
    fetchEarly('/api/v1/gift-cards?limit=24&q=x');
    await vi.runAllTimersAsync(); // the rejection settles before anyone takes it: no unhandled rejection
    await expect(listCatalogue('x')).rejects.toMatchObject({ status: 429, code: 'RATE_LIMITED' });
  });
});
