import { describe, expect, it } from 'vitest';
import { contrastRatio, DARK_TEXT, LIGHT_TEXT, readableTextOn } from './contrast';

describe('readable text on a card colour', () => {
  it('uses dark text on light colours and light text on dark ones', () => {
    expect(readableTextOn('#ffffff')).toBe(DARK_TEXT);
    expect(readableTextOn('#fef9c3')).toBe(DARK_TEXT);
    expect(readableTextOn('#000000')).toBe(LIGHT_TEXT);
    expect(readableTextOn('#1e3a8a')).toBe(LIGHT_TEXT);
  });

  it('always reaches at least 4.5:1 (WCAG AA) for any grey, and the best of the two otherwise', () => {
    for (let v = 0; v <= 255; v += 5) {
      const hex = `#${v.toString(16).padStart(2, '0').repeat(3)}`;
      expect(contrastRatio(hex, readableTextOn(hex)), hex).toBeGreaterThanOrEqual(4.5);
    }
    for (const hex of ['#ff0000', '#00ff00', '#0000ff', '#ff00ff', '#00ffff', '#808000', '#e11d48']) {
      const chosen = contrastRatio(hex, readableTextOn(hex));
      expect(chosen).toBeGreaterThanOrEqual(
        Math.max(contrastRatio(hex, DARK_TEXT), contrastRatio(hex, LIGHT_TEXT)),
      );
      expect(chosen, hex).toBeGreaterThanOrEqual(3);
    }
  });
});
