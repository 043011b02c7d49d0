import { describe, expect, it } from 'vitest';
import { renderLanding } from './landing-prerender';

// What the build pre-renders for / (scripts/prerender.mjs, ADR 004): the page must read without JavaScript.
describe('the pre-rendered landing page', () => {
  const { page, templates, sections } = renderLanding();

  it("holds the hero, the bar's links, the section headings and the footer as HTML", () => {
    for (const text of [
      'Buy, keep, spend and send gift cards',
      'Giftmart is the best and most trusted platform to buy gift cards and shop at any marketplace.',
      'Create an account',
      'Use the Web App',
      'How it works / Features',
      'Customer support',
      'A marketplace for gift cards, built for Nigeria',
      'Simple for businesses and buyers',
      'Safe from payment to payout',
      'Start with Giftmart today',
      'support@giftmart.ng',
      'Terms of use and privacy',
    ]) {
      expect(page, text).toContain(text);
    }
    expect(page).toContain('href="/select-account"');
    expect(page).toContain('href="/login"');
  });

  it('draws each lazy section loading, with a marker where its body goes for browsers without JavaScript', () => {
    expect(sections.map((section) => section.id)).toEqual([
      'about',
      'how-it-works',
      'why-safe',
      'get-started',
    ]);
    for (const { id, html } of sections) {
      expect(page).toContain(`<template data-noscript-body="${id}"></template>`);
      expect(html.length, id).toBeGreaterThan(500);
    }
    expect(sections.find((section) => section.id === 'get-started')?.html).toContain('href="/register"');
    expect(page.match(/aria-busy="true"/g)).toHaveLength(4);
  });

  it('gives the script the parts it adds later: the phone menu, the scroll-to-top button, the load error', () => {
    expect(templates).toContain('<template id="landing-menu"><nav id="landing-menu" aria-label="Main"');
    expect(templates).toContain('aria-label="Scroll to top"');
    expect(templates).toContain('This part of the page did not load.');
  });
});
