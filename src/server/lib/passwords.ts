import { hash, verify } from '@node-rs/argon2';

// Algorithm.Argon2id is an ambient const enum (not importable under verbatimModuleSyntax); its value is 2.
const ARGON2ID = 2;

// OWASP's argon2id baseline (19 MiB, 2 iterations, 1 lane): about 30 ms here, slow enough for guessing.
export const productionHashOptions = {
  algorithm: ARGON2ID,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

// Tests only (NODE_ENV=test: Vitest and the browser journeys' server). The suites create thousands of accounts
// and PINs and the hashing cost, not the code under test, dominated them on a 2-core CI machine. Still argon2id,
// and verify() reads the parameters from the hash itself, so nothing else changes. Never production, `npm start`
// or the benchmarks (they run with NODE_ENV=production).
export const testHashOptions = {
  algorithm: ARGON2ID,
  memoryCost: 1_024,
  timeCost: 1,
  parallelism: 1,
} as const;

export function hashOptions(nodeEnv: string | undefined) {
  return nodeEnv === 'test' ? testHashOptions : productionHashOptions;
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, hashOptions(process.env.NODE_ENV));
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/**
 * A real hash of a random password, computed once, so that a login for an unknown email spends the same
 * time as one for a known email and does not reveal which emails have accounts.
 */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(`decoy-${Math.random()}`);
  return decoy;
}
