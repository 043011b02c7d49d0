import { hash } from '@node-rs/argon2';
import { describe, expect, it } from 'vitest';
import {
  hashOptions,
  hashPassword,
  productionHashOptions,
  testHashOptions,
  verifyPassword,
} from './passwords';

describe('password hashing parameters', () => {
  it('production, development and an unset NODE_ENV keep the OWASP argon2id baseline (19 MiB, 2 iterations, 1 lane)', async () => {
    for (const nodeEnv of ['production', 'development', undefined]) {
      expect(hashOptions(nodeEnv)).toBe(productionHashOptions);
    }
    expect(productionHashOptions).toEqual({ algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 });
    const stored = await hash('correct horse', productionHashOptions);
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(stored, 'correct horse')).toBe(true);
  });

  it('only NODE_ENV=test (which Vitest sets) uses the cheap parameters, and their hashes still verify', async () => {
    expect(process.env.NODE_ENV).toBe('test');
    expect(hashOptions('test')).toBe(testHashOptions);
    const stored = await hashPassword('correct horse');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
    expect(await verifyPassword(stored, 'correct horse')).toBe(true);
    expect(await verifyPassword(stored, 'wrong horse')).toBe(false);
  });
});
