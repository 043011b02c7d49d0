import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, keepSecretsOnce, loadConfig } from './env';

const production = {
  NODE_ENV: 'production',
  DATA_DIR: 'data/test-vitest-env',
  SESSION_SECRET: 's'.repeat(40),
  CODE_ENCRYPTION_KEY: 'k'.repeat(40),
  PUBLIC_URL: 'https://giftmart.example',
};

describe('loadConfig in production', () => {
  it('refuses the sandbox provider (the default), which would issue real codes for test cards', () => {
    expect(() => loadConfig({ ...production })).toThrow(ConfigError);
    expect(() => loadConfig({ ...production })).toThrow(
      /PAYMENT_PROVIDER is sandbox[\s\S]*ALLOW_SANDBOX_IN_PRODUCTION/,
    );
    expect(() => loadConfig({ ...production, PAYMENT_PROVIDER: 'sandbox' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...production, ALLOW_SANDBOX_IN_PRODUCTION: 'false' })).toThrow(ConfigError);
  });

  it('runs the sandbox only when ALLOW_SANDBOX_IN_PRODUCTION says so', () => {
    const config = loadConfig({ ...production, ALLOW_SANDBOX_IN_PRODUCTION: 'true' });
    expect(config.PAYMENT_PROVIDER).toBe('sandbox');
    expect(config.ALLOW_SANDBOX_IN_PRODUCTION).toBe(true);
  });

  it('runs with Paystack', () => {
    const config = loadConfig({
      ...production,
      PAYMENT_PROVIDER: 'paystack',
      PAYSTACK_SECRET_KEY: 'sk_live_x',
    });
    expect(config.PAYMENT_PROVIDER).toBe('paystack');
  });

  it('requires PUBLIC_URL', () => {
    const { PUBLIC_URL: _unset, ...withoutUrl } = production;
    const env = { ...withoutUrl, PAYMENT_PROVIDER: 'paystack', PAYSTACK_SECRET_KEY: 'sk_live_x' };
    expect(() => loadConfig(env)).toThrow(/PUBLIC_URL must be set in production/);
    expect(() => loadConfig({ ...env, PUBLIC_URL: '' })).toThrow(/PUBLIC_URL must be set in production/);
  });

  it('still lets development and tests use the sandbox without PUBLIC_URL', () => {
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: 'data/test-vitest-env' });
    expect(config.PAYMENT_PROVIDER).toBe('sandbox');
    expect(config.PUBLIC_URL).toBeUndefined();
  });
});

describe('TRUST_PROXY', () => {
  const load = (TRUST_PROXY?: string) =>
    loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: 'data/test-vitest-env',
      ...(TRUST_PROXY === undefined ? {} : { TRUST_PROXY }),
    }).TRUST_PROXY;

  it('is off by default and with false or 0', () => {
    expect(load()).toBe(false);
    expect(load('false')).toBe(false);
    expect(load('0')).toBe(false);
  });

  it('takes a hop count', () => {
    expect(load('1')).toBe(1);
    expect(load('2')).toBe(2);
  });

  it('takes proxy addresses and CIDRs', () => {
    expect(load('10.0.0.1, 192.168.0.0/16,::1,loopback')).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
      '::1',
      'loopback',
    ]);
  });

  it('refuses true, which would believe the forgeable leftmost address, and says to give the hop count', () => {
    expect(() => load('true')).toThrow(/TRUST_PROXY: true would trust the leftmost[\s\S]*number of proxies/);
  });

  it('refuses anything that is not an address', () => {
    expect(() => load('yes')).toThrow(/TRUST_PROXY: must be false, a hop count/);
    expect(() => load('10.0.0.0/40')).toThrow(/TRUST_PROXY/);
  });
});

describe('development secrets', () => {
  it('are kept by the first process that writes them; one starting at the same time uses those', () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'giftmart-secrets-'));
    try {
      const file = path.join(dataDir, 'secrets.json');
      const first = { SESSION_SECRET: 'a'.repeat(43), CODE_ENCRYPTION_KEY: 'b'.repeat(43) };
      const second = { SESSION_SECRET: 'c'.repeat(43), CODE_ENCRYPTION_KEY: 'd'.repeat(43) };
      expect(keepSecretsOnce(file, first)).toEqual(first);
      // The second found no file when it looked (it started at the same moment), then came to write.
      expect(keepSecretsOnce(file, second)).toEqual(first);
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(first);
      expect(readdirSync(dataDir)).toEqual(['secrets.json']);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      // And loadConfig reads them from there.
      expect(loadConfig({ NODE_ENV: 'development', DATA_DIR: dataDir }).SESSION_SECRET).toBe(
        first.SESSION_SECRET,
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
