import { chromium, type Page } from '@playwright/test';
import { accessSync, constants } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { bundledBrowser, CHROMIUM_ARGS, testBrowser, type TestBrowser } from './fixtures/browser';

/**
 * The browser tests must run on a machine without /usr/bin/chromium: then they use the Chromium inside
 * @sparticuz/chromium. That one is checked here on every machine (on a machine with Debian's, the e2e run
 * alone would never launch it): it starts offline with the e2e flags and draws text, not blanks.
 */
async function capture(page: Page, tries = 3): Promise<Buffer> {
  try {
    return await page.screenshot();
  } catch (error) {
    if (tries <= 1 || !String(error).includes('Unable to capture screenshot')) throw error;
    await new Promise((resolve) => setTimeout(resolve, 250));
    return capture(page, tries - 1);
  }
}

async function inkOfText(browser: TestBrowser): Promise<number> {
  const instance = await chromium.launch({
    executablePath: browser.executablePath,
    env: browser.env,
    args: CHROMIUM_ARGS,
  });
  try {
    const page = await instance.newPage({ viewport: { width: 400, height: 80 } });
    await page.setContent(
      '<body style="margin:0;background:#fff"><p style="font:bold 32px sans-serif;color:#000;margin:16px">Giftmart</p></body>',
    );
    // The text painted first (two frames), and the capture tried again on Chromium's "Unable to capture
    // screenshot", which a machine under load (a CI run with both halves' servers) gave once: the test is
    // about whether this browser draws text, not about the first capture's timing.
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
    const png = await capture(page);
    const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
    let dark = 0;
    for (let i = 0; i < info.width * info.height; i += 1) if (data[i * info.channels]! < 128) dark += 1;
    return dark;
  } finally {
    await instance.close();
  }
}

describe('the Chromium the browser tests use', () => {
  it('is an executable file, and launches and draws text', async () => {
    const browser = await testBrowser();
    expect(() => accessSync(browser.executablePath, constants.X_OK)).not.toThrow();
    // "Giftmart" in bold 32 px covers well over 500 dark pixels; no usable font draws none.
    expect(await inkOfText(browser)).toBeGreaterThan(500);
  });

  it('falls back to the one inside @sparticuz/chromium, which launches offline and draws text', async () => {
    const browser = await bundledBrowser();
    expect(browser.source).toBe('bundled');
    expect(() => accessSync(browser.executablePath, constants.X_OK)).not.toThrow();
    expect(await inkOfText(browser)).toBeGreaterThan(500);
  });
});
