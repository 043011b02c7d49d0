import { describe, expect, it } from 'vitest';
import { nextQuery, safeNextPath } from './next-path';

describe('where to go after logging in (?next=)', () => {
  it('keeps a path on this site, with its query and fragment', () => {
    expect(safeNextPath('/gifts/7d1c')).toBe('/gifts/7d1c');
    expect(safeNextPath('/user-dashboard/gifts?tab=sent')).toBe('/user-dashboard/gifts?tab=sent');
    expect(safeNextPath('/gifts/7d1c#token=abc')).toBe('/gifts/7d1c#token=abc');
  });

  it('refuses anything that could leave the site', () => {
    for (const bad of [
      null,
      undefined,
      '',
      'gifts/1',
      '//evil.example/x',
      '/\\evil.example',
      '/\\/evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
      '/\t/evil.example',
      '/ /evil.example',
      `/${'a'.repeat(600)}`,
    ]) {
      expect(safeNextPath(bad), String(bad)).toBeNull();
    }
  });

  it('builds the query for a link, or nothing', () => {
    expect(nextQuery('/gifts/1')).toBe('?next=%2Fgifts%2F1');
    expect(nextQuery('//evil.example')).toBe('');
    expect(nextQuery(null)).toBe('');
  });
});
