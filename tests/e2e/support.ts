import { expect, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { businessInput, DEFAULT_PASSWORD, userInput } from '../fixtures/factories';

export { businessInput, DEFAULT_PASSWORD, userInput };

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** Runs axe-core in the page and fails on serious or critical violations (names them in the message). */
export async function expectNoSeriousA11yViolations(page: Page): Promise<void> {
  // Evaluated through the DevTools protocol: the app's CSP (rightly) refuses inline <script> tags.
  // Once per document: a journey that checks several screens of the single-page app reuses it.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  // A colour read mid-transition (a button just enabled, fading from its pale disabled shade) is neither state:
  // short transitions (Tailwind's take 150 ms) end first, so axe judges what stays on the screen. Long or endless
  // ones are not waited for: a toast's countdown bar would close the toast before axe saw it, a spinner never ends.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => Number(a.effect?.getComputedTiming().endTime ?? Infinity) <= 500)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            ctx: Document,
            opts: object,
          ) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map(
        (v) =>
          `${v.id} (${v.impact}): ${v.nodes
            .map((n) => n.target.join(' '))
            .slice(0, 3)
            .join(', ')}`,
      );
  });
  expect(violations, violations.join('\n')).toEqual([]);
}

/** Registers an account through the API (fast set-up for journeys that are not about registering). */
export async function registerViaApi(page: Page, role: 'business'): Promise<ReturnType<typeof businessInput>>;
export async function registerViaApi(page: Page, role: 'user'): Promise<ReturnType<typeof userInput>>;
export async function registerViaApi(page: Page, role: 'business' | 'user'): Promise<{ email: string }>;
export async function registerViaApi(page: Page, role: 'business' | 'user') {
  const input = role === 'business' ? businessInput() : userInput();
  const res = await page.request.post(role === 'business' ? '/api/v1/businesses' : '/api/v1/users', {
    data: input,
  });
  expect(res.status(), await res.text()).toBe(201);
  return input;
}

/** Logs in through the real form and waits for the dashboard. */
export async function logInViaForm(
  page: Page,
  role: 'business' | 'user',
  email: string,
  password = DEFAULT_PASSWORD,
) {
  await page.goto(role === 'business' ? '/business/login' : '/login');
  await page.getByLabel(role === 'business' ? 'Email' : 'Email or username').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  if (role === 'business') await page.getByLabel('Remember me').check();
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(role === 'business' ? /\/dashboard$/ : /\/user-dashboard$/);
  await appDrawn(page);
}

/**
 * Signs in through the API from the page's own context (the session cookie lands in the browser) and opens
 * the dashboard. For journeys that are not about the login form: the form has its own journeys (auth.spec.ts),
 * and typing into it cost every other journey a page load and a render.
 */
export async function logInViaApi(
  page: Page,
  role: 'business' | 'user',
  email: string,
  password = DEFAULT_PASSWORD,
) {
  const res = await page.request.post('/api/v1/auth/login', {
    // Like the business form with "Remember me" ticked, which logInViaForm does.
    data: { email, password, remember: role === 'business' },
  });
  expect(res.status(), await res.text()).toBe(200);
  const { account } = (await res.json()) as { account: { role: string } };
  // What the form does after a login: keep the profile snapshot that picks the dashboard (src/web/lib/store.ts,
  // persisted under persist:giftmart) — set on a tiny same-origin page, before the app first loads.
  await page.goto('/api/health');
  await page.evaluate(
    (state) => {
      localStorage.setItem('persist:giftmart', JSON.stringify({ state, version: 1 }));
    },
    {
      bizClient: account.role === 'business' ? account : null,
      userData: account.role === 'business' ? null : account,
      DataCard: null,
    },
  );
  await page.goto(role === 'business' ? '/dashboard' : '/user-dashboard');
  await expect(page).toHaveURL(role === 'business' ? /\/dashboard$/ : /\/user-dashboard$/);
  await appDrawn(page);
}

/**
 * Waits until the app has drawn the page: a user's home is pre-rendered (issue 14), there before the app's code,
 * and the app draws it again once that code has come (src/web/main.tsx takes `data-prerendered` away then).
 */
export async function appDrawn(page: Page) {
  await expect(page.locator('#root[data-prerendered]')).toHaveCount(0, { timeout: 15_000 });
}

/**
 * From the page's first byte, notes whether an element matching `selector` (a spinner) ever appears, however
 * briefly; `spinnerSeen` reads the note.
 */
export async function watchForSpinners(page: Page, selector: string) {
  await page.addInitScript((spinner) => {
    const seen = window as unknown as { spinnerSeen: boolean };
    seen.spinnerSeen = false;
    new MutationObserver(() => {
      if (document.querySelector(spinner)) seen.spinnerSeen = true;
    }).observe(document, { childList: true, subtree: true });
  }, selector);
}

export const spinnerSeen = (page: Page) =>
  page.evaluate(() => (window as unknown as { spinnerSeen: boolean }).spinnerSeen);

/**
 * From the page's first byte, notes the transition SweetAlert2 gives a dialog's timer bar as its countdown starts
 * (`width 1s linear` for one second); `timerBarTransition` reads the note. Noted in the page as it happens: on a
 * slowed machine a one-second dialog was gone, or its bar too narrow to count as visible, before a check from the
 * test reached it (flaky fresh-clone CI runs, nineteenth session).
 */
export async function watchTimerBars(page: Page) {
  await page.addInitScript(() => {
    const seen = window as unknown as { timerBarTransition: string };
    seen.timerBarTransition = '';
    new MutationObserver(() => {
      const bar = document.querySelector<HTMLElement>('.swal2-timer-progress-bar');
      if (bar?.style.transition.startsWith('width')) seen.timerBarTransition = bar.style.transition;
    }).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['style'] });
  });
}

export const timerBarTransition = (page: Page) =>
  page.evaluate(() => (window as unknown as { timerBarTransition: string }).timerBarTransition);

/**
 * Holds the files `pattern` matches until `release` is called; `asked` settles once the browser asks for one.
 */
export async function holdFiles(
  page: Page,
  pattern: RegExp,
): Promise<{ asked: Promise<void>; release: () => void }> {
  let release = () => {};
  const held = new Promise<void>((done) => (release = done));
  let noteAsked = () => {};
  const asked = new Promise<void>((done) => (noteAsked = done));
  await page.route(pattern, async (route) => {
    noteAsked();
    await held;
    await route.continue();
  });
  return { asked, release };
}

/**
 * Holds the app's code (its start file) until the returned function is called: what is on screen meanwhile is
 * the page as the server sent it (a pre-rendered page, or the loading screen).
 */
export async function holdAppCode(page: Page): Promise<() => void> {
  return (await holdFiles(page, /\/assets\/start-[^/]*\.js$/)).release;
}

/**
 * Lets the test make React slow to commit, as on a busy phone: while `slow` is on, every task React's
 * scheduler posts (through a MessageChannel) is delivered `ms` later. Installed before the page's first byte.
 */
export async function reactCommitsDelay(page: Page, ms: number) {
  await page.addInitScript((delay) => {
    const win = window as unknown as { slowCommits: boolean };
    win.slowCommits = false;
    const post = MessagePort.prototype.postMessage;
    MessagePort.prototype.postMessage = function (this: MessagePort, ...args: unknown[]) {
      const send = () => (post as (...a: unknown[]) => void).apply(this, args);
      if (win.slowCommits) setTimeout(send, delay);
      else send();
    };
  }, ms);
  return (slow: boolean) =>
    page.evaluate((on) => ((window as unknown as { slowCommits: boolean }).slowCommits = on), slow);
}
