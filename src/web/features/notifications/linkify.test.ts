import { describe, expect, it } from 'vitest';
import { linkify } from './linkify';

describe('links in a plain-text mail', () => {
  it('turns each web address into a link and keeps the text around it', () => {
    expect(linkify('Accept it here: http://127.0.0.1:3100/gifts/1b2c#token=ab_c-9.\nThanks')).toEqual([
      { kind: 'text', text: 'Accept it here: ' },
      { kind: 'link', href: 'http://127.0.0.1:3100/gifts/1b2c#token=ab_c-9' },
      { kind: 'text', text: '.\nThanks' },
    ]);
  });

  it('leaves text without addresses alone, and never links other schemes', () => {
    expect(linkify('Hello Ada')).toEqual([{ kind: 'text', text: 'Hello Ada' }]);
    expect(linkify('javascript:alert(1) mailto:a@b.c')).toEqual([
      { kind: 'text', text: 'javascript:alert(1) mailto:a@b.c' },
    ]);
  });

  it('finds several, with closing brackets left outside', () => {
    expect(linkify('(https://a.example/x) and https://b.example')).toEqual([
      { kind: 'text', text: '(' },
      { kind: 'link', href: 'https://a.example/x' },
      { kind: 'text', text: ') and ' },
      { kind: 'link', href: 'https://b.example' },
    ]);
  });
});
