import { describe, expect, it } from 'vitest';
import { tokenFromHash } from './gift-token';

describe("a gift link's token", () => {
  it('is read from the fragment', () => {
    expect(tokenFromHash('#token=MtgMCcj7_gTt8TNO2ilpe-ChgK')).toBe('MtgMCcj7_gTt8TNO2ilpe-ChgK');
    expect(tokenFromHash('token=abc')).toBe('abc');
  });

  it('is nothing when absent or not the shape a token has', () => {
    expect(tokenFromHash('')).toBeNull();
    expect(tokenFromHash('#other=1')).toBeNull();
    expect(tokenFromHash('#token=')).toBeNull();
    expect(tokenFromHash('#token=<script>')).toBeNull();
    expect(tokenFromHash(`#token=${'a'.repeat(201)}`)).toBeNull();
  });
});
