import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { publicConfigScript, type PublicConfig } from '../../../shared/public-config';
import { takePublicConfigFromPage } from './use-public-config';

/** A page holding `script` as the one element the function looks for (the tests run without a DOM). */
function pageWith(script: string | null): Document {
  const text = script === null ? undefined : script.replace(/^<script[^>]*>/, '').replace(/<\/script>$/, '');
  return {
    getElementById: (id: string) =>
      id === 'public-config' && text !== undefined ? { textContent: text } : null,
  } as unknown as Document;
}

describe('the public config a pre-rendered page carries', () => {
  it('goes into the cache as the API answer, so the screens do not ask again', () => {
    const client = new QueryClient();
    const config = { currency: 'NGN', supportEmail: "o'neil+help@giftmart.test" };
    takePublicConfigFromPage(client, pageWith(publicConfigScript(config)));
    expect(client.getQueryData<PublicConfig>(['config'])).toEqual(config);
  });

  it('is left out when the page has none, or holds something else', () => {
    for (const script of [
      null,
      '<script>not json</script>',
      '<script>{"currency":"NGN"}</script>',
      '<script>null</script>',
    ]) {
      const client = new QueryClient();
      takePublicConfigFromPage(client, pageWith(script));
      expect(client.getQueryData(['config']), String(script)).toBeUndefined();
    }
  });

  it('cannot end its script early: "<" is escaped in the element', () => {
    const script = publicConfigScript({ currency: 'NGN', supportEmail: '</script><b>x@giftmart.test' });
    expect(script.match(/<\/script>/g)).toHaveLength(1);
    const client = new QueryClient();
    takePublicConfigFromPage(client, pageWith(script));
    expect(client.getQueryData<PublicConfig>(['config'])?.supportEmail).toBe('</script><b>x@giftmart.test');
  });
});
