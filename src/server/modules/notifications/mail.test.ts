import { simpleParser, type ParsedMail } from 'mailparser';
import { randomBytes, randomUUID } from 'node:crypto';
import net, { type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mail } from '../../../shared/notifications/schemas';
import { buyCard, cardNewsDelivered, createDesign, redeemAt } from '../../../../tests/fixtures/cards';
import { createTestApp, registerAndLogin, type TestApp } from '../../../../tests/fixtures/test-app';
import { fundedBusiness } from '../../../../tests/fixtures/wallet';
import { publicUrl } from '../../lib/public-url';
import { applyTransferState } from '../wallet/withdrawals.service';
import { escapeHtml } from '../../lib/html';
import { absoluteLink, renderMail } from './mail-render';
import {
  createMailTransport,
  MAIL_LEASE_MS,
  mailRetryDelayMs,
  sendDueMails,
  startMailWorker,
  type MailDeps,
} from './mail-worker';
import { claimDueMails } from './notifications.repository';
import { queueMail } from './notifications.service';

/**
 * Mail end to end: events write mail to the outbox in their own transaction, the worker sends it to a real
 * SMTP server (smtp-server on a free port, read back with mailparser), a server that is down delays mail
 * and loses none, racing workers send each mail once, and the local mailbox shows kept mail only where it
 * should. The test database is shared, so each test sends only mail to its own addresses (`onlyTo`).
 */

interface Received {
  envelopeTo: string[];
  parsed: ParsedMail;
}

interface Inbox {
  url: string;
  port: number;
  mails: Received[];
  to(address: string): Received[];
  close(): Promise<void>;
}

async function startSmtp(port = 0): Promise<Inbox> {
  const mails: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          mails.push({ envelopeTo: session.envelope.rcptTo.map((r) => r.address), parsed });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actual = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${actual}`,
    port: actual,
    mails,
    to: (address) => mails.filter((m) => m.envelopeTo.includes(address)),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A port with nothing listening on it (taken, then freed). */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const PUBLIC = 'https://giftmart.example';

let inbox: Inbox;
let smtpApp: TestApp;
let keptApp: TestApp;
beforeAll(async () => {
  inbox = await startSmtp();
  smtpApp = await createTestApp({ SMTP_URL: inbox.url, PUBLIC_URL: PUBLIC, SANDBOX_WEBHOOK_DELAY_MS: '0' });
  keptApp = await createTestApp();
});
afterAll(async () => {
  await smtpApp.close();
  await keptApp.close();
  await inbox.close();
});

const deps = (t: TestApp, extra: Partial<MailDeps> = {}): MailDeps => ({
  db: t.database.db,
  config: t.config,
  ...extra,
});

async function outboxRows(to: string) {
  const { rows } = await smtpApp.database.pool.query<{
    id: string;
    kind: string;
    status: string;
    attempts: number;
    last_error: string | null;
    sent_at: Date | null;
    next_attempt_at: Date;
  }>(
    'SELECT id, kind, status, attempts, last_error, sent_at, next_attempt_at FROM mail_outbox WHERE to_address = $1 ORDER BY created_at, id',
    [to],
  );
  return rows;
}

function hrefs(html: string): string[] {
  return [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
}

/** A fresh address for mail queued by hand. */
const address = () => `mail-${randomBytes(6).toString('hex')}@example.test`;

describe('mail on events, through a real SMTP server', () => {
  it('a new account gets a welcome mail: from, to, subject, text, absolute links, and its name escaped', async () => {
    const name = '<script>alert("x")</script> & Ada';
    const user = await registerAndLogin(smtpApp.app, 'user', { name });
    const to = user.input.email;
    expect(await outboxRows(to)).toMatchObject([{ kind: 'welcome', status: 'queued', attempts: 0 }]);

    const result = await sendDueMails(deps(smtpApp), { onlyTo: [to] });
    expect(result).toEqual({ claimed: 1, sent: 1, retried: 0, failed: 0 });
    const [mail] = inbox.to(to);
    expect(inbox.to(to)).toHaveLength(1);
    const { parsed } = mail!;
    const [row] = await outboxRows(to);
    expect(row).toMatchObject({ status: 'sent', attempts: 1, last_error: null });
    expect(row!.sent_at).toBeInstanceOf(Date);

    expect(parsed.subject).toBe('Welcome to Giftmart');
    expect(parsed.from?.value).toEqual([{ address: 'no-reply@giftmart.ng', name: 'Giftmart' }]);
    expect(parsed.to && !Array.isArray(parsed.to) ? parsed.to.value[0]?.address : null).toBe(to);
    expect(parsed.messageId).toBe(`<${row!.id}@giftmart>`);
    expect(parsed.text).toContain(`Welcome, ${name}`);
    expect(parsed.text).toContain(`Browse gift cards: ${PUBLIC}/user-dashboard`);

    const html = parsed.html as string;
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Ada');
    expect(html).toContain('max-width:560px');
    expect(html).toContain('#4f46e5');
    const links = hrefs(html);
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(link.startsWith(`${PUBLIC}/`), link).toBe(true);
    expect(links).toContain(`${PUBLIC}/user-dashboard`);
  });

  it('a business’s welcome leads to designing a card', async () => {
    const business = await registerAndLogin(smtpApp.app, 'business');
    await sendDueMails(deps(smtpApp), { onlyTo: [business.input.email] });
    const [mail] = inbox.to(business.input.email);
    expect(mail!.parsed.text).toContain(`Design a gift card: ${PUBLIC}/dashboard/giftcard`);
  });

  it('the holder is mailed when their card is used: amount, place, balance left, a link to freeze it', async () => {
    const seller = await registerAndLogin(smtpApp.app, 'business', {
      name: `Spa <b>${randomBytes(3).toString('hex')}</b>`,
    });
    const buyer = await registerAndLogin(smtpApp.app, 'user');
    const card = await buyCard(smtpApp, buyer, await createDesign(seller, 1_000_000));
    const used = await redeemAt(seller, { code: card.code, amount: 250_000 });
    expect(used.statusCode, used.body).toBe(201);
    await cardNewsDelivered(smtpApp);
    await sendDueMails(deps(smtpApp), { onlyTo: [buyer.input.email] });
    const mail = inbox
      .to(buyer.input.email)
      .find((m) => m.parsed.subject === 'Your Giftmart card was just used');
    expect(mail).toBeDefined();
    const text = mail!.parsed.text!;
    expect(text).toMatch(/₦2,500\.00 was spent at Spa <b>/);
    expect(text).toContain('₦7,500.00 is left on the card.');
    expect(text).toContain(`${PUBLIC}/user-dashboard/mycards/${card.id}`);
    const html = mail!.parsed.html as string;
    expect(html).toContain('Spa &lt;b&gt;');
    expect(hrefs(html)).toContain(`${PUBLIC}/user-dashboard/mycards/${card.id}`);
    // The code itself is never in a mail.
    expect(text).not.toContain(card.code);
    expect(html).not.toContain(card.code);
  });

  it('a business is mailed when a withdrawal is paid and when one fails', async () => {
    const business = await fundedBusiness(smtpApp, 1_000_000n);
    const withdraw = async () => {
      const res = await business.request({
        method: 'POST',
        url: '/api/v1/withdrawals',
        payload: { amount: 200_000, pin: '2580' },
      });
      expect(res.statusCode, res.body).toBe(201);
      return (res.json() as { id: string }).id;
    };
    const wdeps = { db: smtpApp.database.db, config: smtpApp.config, payouts: {} as never };
    await applyTransferState(wdeps, await withdraw(), { status: 'success' });
    await applyTransferState(wdeps, await withdraw(), {
      status: 'failed',
      reason: 'The receiving bank rejected the transfer.',
    });
    await sendDueMails(deps(smtpApp), { onlyTo: [business.input.email] });
    const subjects = inbox.to(business.input.email).map((m) => m.parsed.subject);
    expect(subjects).toEqual(
      expect.arrayContaining([
        'Welcome to Giftmart',
        'Your Giftmart withdrawal has been paid',
        'Your Giftmart withdrawal failed',
      ]),
    );
    const failed = inbox
      .to(business.input.email)
      .find((m) => m.parsed.subject === 'Your Giftmart withdrawal failed')!;
    expect(failed.parsed.text).toContain(
      'Your ₦2,000.00 withdrawal failed. The receiving bank rejected the transfer.',
    );
    expect(failed.parsed.text).toContain('The money is back in your wallet.');
    expect(failed.parsed.text).toContain(`${PUBLIC}/dashboard/wallet`);
  });

  it('mail is written with its event: a rolled-back event mails nothing', async () => {
    const to = address();
    await smtpApp.database.db
      .transaction(async (tx) => {
        await queueMail(tx, [{ to, kind: 'test', subject: 's', heading: 'h', paragraphs: ['p'] }]);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect(await outboxRows(to)).toEqual([]);
  });
});

describe('a mail server that is down delays mail and loses none', () => {
  it('stays queued with the error, then arrives exactly once when the server is back', async () => {
    const port = await closedPort();
    const down = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}`, PUBLIC_URL: PUBLIC });
    try {
      const user = await registerAndLogin(down.app, 'user');
      const to = user.input.email;
      const before = Date.now();
      const first = await sendDueMails(deps(down), { onlyTo: [to] });
      expect(first).toEqual({ claimed: 1, sent: 0, retried: 1, failed: 0 });
      const [row] = await outboxRows(to);
      expect(row).toMatchObject({ status: 'queued', attempts: 1, sent_at: null });
      expect(row!.last_error).toMatch(/ECONNREFUSED|connect/i);
      // Due again after the first back-off (30 s), not now.
      const wait = row!.next_attempt_at.getTime() - before;
      expect(wait).toBeGreaterThan(25_000);
      expect(wait).toBeLessThan(40_000);
      expect(await sendDueMails(deps(down), { onlyTo: [to] })).toMatchObject({ claimed: 0 });

      const back = await startSmtp(port);
      try {
        await down.database.pool.query('UPDATE mail_outbox SET next_attempt_at = now() WHERE id = $1', [
          row!.id,
        ]);
        expect(await sendDueMails(deps(down), { onlyTo: [to] })).toMatchObject({ claimed: 1, sent: 1 });
        expect(await sendDueMails(deps(down), { onlyTo: [to] })).toMatchObject({ claimed: 0 });
        expect(back.to(to)).toHaveLength(1);
        expect(back.to(to)[0]!.parsed.subject).toBe('Welcome to Giftmart');
        expect(await outboxRows(to)).toMatchObject([{ status: 'sent', attempts: 2, last_error: null }]);
      } finally {
        await back.close();
      }
    } finally {
      await down.close();
    }
  });

  it('backs off 30 s × 2^(tries−1) up to an hour, and gives up (failed, logged) after the 10th try', async () => {
    expect([1, 2, 3, 4, 8, 9, 10].map(mailRetryDelayMs)).toEqual([
      30_000, 60_000, 120_000, 240_000, 3_600_000, 3_600_000, 3_600_000,
    ]);
    const port = await closedPort();
    const to = address();
    await queueMail(smtpApp.database.db, [
      { to, kind: 'test', subject: 'Last try', heading: 'h', paragraphs: ['SECRET-LINK-TOKEN-42'] },
    ]);
    await smtpApp.database.pool.query('UPDATE mail_outbox SET attempts = 9 WHERE to_address = $1', [to]);
    const lines: string[] = [];
    const log = pino(
      { level: 'info' },
      new Writable({ write: (chunk, _e, done) => (lines.push(String(chunk)), done()) }),
    );
    const result = await sendDueMails(
      deps(smtpApp, { log, transport: createMailTransport({ SMTP_URL: `smtp://127.0.0.1:${port}` }) }),
      { onlyTo: [to] },
    );
    expect(result).toMatchObject({ claimed: 1, failed: 1 });
    const [row] = await outboxRows(to);
    expect(row).toMatchObject({ status: 'failed', attempts: 10 });
    expect(row!.last_error).toBeTruthy();
    const logged = lines.map((l) => JSON.parse(l) as { level: number; mailId?: string; msg: string });
    expect(logged).toContainEqual(expect.objectContaining({ level: 50, mailId: row!.id }));
    // Logs name the mail by id; never its words (a link in it may carry a secret).
    expect(lines.join('')).not.toContain('SECRET-LINK-TOKEN-42');
    expect(lines.join('')).not.toContain('Last try');
    // A failed mail is never claimed again.
    await smtpApp.database.pool.query(
      'UPDATE mail_outbox SET next_attempt_at = now() WHERE to_address = $1',
      [to],
    );
    expect(await sendDueMails(deps(smtpApp), { onlyTo: [to] })).toMatchObject({ claimed: 0 });
  });

  it('a worker that dies after claiming leaves the mail to the next one when its lease ends, with the same Message-ID', async () => {
    const to = address();
    await queueMail(smtpApp.database.db, [
      { to, kind: 'test', subject: 'Leased', heading: 'h', paragraphs: ['p'] },
    ]);
    // The "crashed" worker: claimed, never sent.
    const [claimed] = await claimDueMails(smtpApp.database.db, {
      limit: 1,
      leaseMs: MAIL_LEASE_MS,
      onlyTo: [to],
    });
    expect(claimed).toMatchObject({ attempts: 1, status: 'queued' });
    expect(claimed!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + MAIL_LEASE_MS - 10_000);
    expect(await sendDueMails(deps(smtpApp), { onlyTo: [to] })).toMatchObject({ claimed: 0 });
    await smtpApp.database.pool.query(
      'UPDATE mail_outbox SET next_attempt_at = now() WHERE to_address = $1',
      [to],
    );
    expect(await sendDueMails(deps(smtpApp), { onlyTo: [to] })).toMatchObject({ sent: 1 });
    expect(inbox.to(to).map((m) => m.parsed.messageId)).toEqual([`<${claimed!.id}@giftmart>`]);
  });
});

describe('the worker in the server', () => {
  it('sends due mail every MAIL_POLL_MS, and its stop waits for the pass in progress', async () => {
    const to = address();
    const stop = startMailWorker(
      { db: smtpApp.database.db, config: { ...smtpApp.config, MAIL_POLL_MS: 50 } },
      { onlyTo: [to] },
    );
    try {
      await queueMail(smtpApp.database.db, [
        { to, kind: 'test', subject: 'From the worker', heading: 'h', paragraphs: ['p'] },
      ]);
      await expect.poll(() => inbox.to(to).length, { timeout: 5000 }).toBe(1);
      // The SMTP server has the mail a moment before the worker writes down that it was sent.
      await expect
        .poll(async () => (await outboxRows(to)).map((r) => [r.status, r.attempts]), { timeout: 5000 })
        .toEqual([['sent', 1]]);
    } finally {
      await stop();
    }
    await queueMail(smtpApp.database.db, [
      { to, kind: 'test', subject: 'After stop', heading: 'h', paragraphs: ['p'] },
    ]);
    await new Promise((r) => setTimeout(r, 200));
    expect(inbox.to(to)).toHaveLength(1);
  });
});

describe('workers racing', () => {
  it('four workers on the same due mails send each exactly once', async () => {
    const addresses = Array.from({ length: 12 }, address);
    await queueMail(
      smtpApp.database.db,
      addresses.map((to) => ({ to, kind: 'test', subject: `Race ${to}`, heading: 'h', paragraphs: ['p'] })),
    );
    const results = await Promise.all(
      Array.from({ length: 4 }, () => sendDueMails(deps(smtpApp), { onlyTo: addresses, limit: 5 })),
    );
    // Whatever was left (each pass takes at most 5), a second round sends.
    const rest = await Promise.all(
      Array.from({ length: 4 }, () => sendDueMails(deps(smtpApp), { onlyTo: addresses, limit: 5 })),
    );
    const sent = [...results, ...rest].reduce((n, r) => n + r.sent, 0);
    expect(sent).toBe(12);
    for (const to of addresses) expect(inbox.to(to), to).toHaveLength(1);
  });

  it('kept mail: four passes at once mark each due mail sent once, in one try, and leave a mail not yet due', async () => {
    const addresses = Array.from({ length: 12 }, address);
    await queueMail(
      keptApp.database.db,
      addresses.map((to) => ({ to, kind: 'test', subject: `Kept ${to}`, heading: 'h', paragraphs: ['p'] })),
    );
    const later = address();
    await queueMail(keptApp.database.db, [
      { to: later, kind: 'test', subject: 'Later', heading: 'h', paragraphs: ['p'] },
    ]);
    await keptApp.database.pool.query(
      `UPDATE mail_outbox SET next_attempt_at = now() + interval '1 hour' WHERE to_address = $1`,
      [later],
    );
    const onlyTo = [...addresses, later];
    const results = await Promise.all(
      Array.from({ length: 4 }, () => sendDueMails(deps(keptApp), { onlyTo, limit: 5 })),
    );
    const rest = await Promise.all(
      Array.from({ length: 4 }, () => sendDueMails(deps(keptApp), { onlyTo, limit: 5 })),
    );
    expect([...results, ...rest].reduce((n, r) => n + r.sent, 0)).toBe(12);
    for (const to of addresses) {
      expect(await outboxRows(to), to).toEqual([
        expect.objectContaining({ status: 'sent', attempts: 1, last_error: null, sent_at: expect.any(Date) }),
      ]);
    }
    expect(await outboxRows(later)).toEqual([expect.objectContaining({ status: 'queued', attempts: 0 })]);
  });
});

describe('rendering', () => {
  it('escapes every value and keeps every link on the site, whatever the path holds', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
    for (const path of [
      '//evil.example/x',
      'https://evil.example',
      'javascript:alert(1)',
      '\\\\evil',
      '/ok?a=1#b',
    ]) {
      const link = absoluteLink(PUBLIC, path);
      expect(link.startsWith(`${PUBLIC}/`), `${path} → ${link}`).toBe(true);
      expect(new URL(link).origin).toBe(PUBLIC);
    }
    const mail = renderMail(
      {
        subject: 'Hi\r\nBcc: victim@example.test',
        content: {
          heading: '"><img src=x onerror=alert(1)>',
          paragraphs: ['a\u0000b', '<b>bold</b>'],
          action: { label: '<i>go</i>', path: '/user-dashboard' },
        },
      },
      PUBLIC,
    );
    expect(mail.subject).toBe('Hi Bcc: victim@example.test');
    expect(mail.html).not.toMatch(/<img|<b>|<i>/);
    expect(mail.text).not.toContain('\u0000');
    expect(mail.text).toContain(`<i>go</i>: ${PUBLIC}/user-dashboard`);
  });

  it('says "your account" only in mail to an account; a gift to an address with no account says why it came', () => {
    const content = { heading: 'h', paragraphs: ['p'] };
    const toAccount = renderMail({ subject: 's', content, accountId: randomUUID() }, PUBLIC);
    const toAddress = renderMail({ subject: 's', content, accountId: null }, PUBLIC);
    expect(toAccount.text).toContain('because of your Giftmart account');
    expect(toAddress.text).not.toContain('your Giftmart account');
    expect(toAddress.text).toContain('someone used Giftmart to send you something');
    expect(toAddress.html).toContain('someone used Giftmart to send you something');
  });

  it('links on the embedded default go to this machine’s port (the same rule as orders)', () => {
    expect(publicUrl({ PORT: 3000, PUBLIC_URL: undefined })).toBe('http://127.0.0.1:3000');
    expect(publicUrl({ PORT: 3000, PUBLIC_URL: 'https://g.example/' })).toBe('https://g.example');
    const { html } = renderMail(
      { subject: 's', content: { heading: 'h', paragraphs: [], action: { label: 'l', path: '/x' } } },
      publicUrl(keptApp.config),
    );
    expect(hrefs(html)).toContain(`http://127.0.0.1:${keptApp.config.PORT}/x`);
  });
});

describe('the local mailbox (/api/dev/mailbox)', () => {
  it('on the embedded default shows kept mail, newest first, drawn as it is sent; sending only marks it sent', async () => {
    const user = await registerAndLogin(keptApp.app, 'user', { name: 'Mailbox <Tester>' });
    const to = user.input.email;
    const res = await keptApp.app.inject({
      method: 'GET',
      url: `/api/dev/mailbox?to=${encodeURIComponent(to)}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const [mail] = (res.json() as { items: Mail[] }).items;
    expect(mail).toMatchObject({
      kind: 'welcome',
      to,
      subject: 'Welcome to Giftmart',
      status: 'queued',
      sentAt: null,
    });
    expect(mail!.text).toContain('Welcome, Mailbox <Tester>');
    expect(mail!.html).toContain('Welcome, Mailbox &lt;Tester&gt;');

    expect(createMailTransport(keptApp.config).kind).toBe('kept');
    expect(await sendDueMails(deps(keptApp), { onlyTo: [to] })).toMatchObject({ sent: 1 });
    const after = (
      await keptApp.app.inject({ method: 'GET', url: `/api/dev/mailbox?to=${encodeURIComponent(to)}` })
    ).json() as { items: Mail[] };
    expect(after.items).toHaveLength(1);
    expect(after.items[0]).toMatchObject({ id: mail!.id, status: 'sent' });
    expect(after.items[0]!.sentAt).not.toBeNull();

    const all = (await keptApp.app.inject({ method: 'GET', url: '/api/dev/mailbox' })).json() as {
      items: Mail[];
    };
    expect(all.items.length).toBeGreaterThan(0);
    expect(all.items.length).toBeLessThanOrEqual(100);
    const times = all.items.map((m) => m.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('is 404 when SMTP_URL is set, and in production', async () => {
    const withSmtp = await smtpApp.app.inject({ method: 'GET', url: '/api/dev/mailbox' });
    expect(withSmtp.statusCode).toBe(404);
    expect(withSmtp.json()).toMatchObject({ code: 'NOT_FOUND', message: expect.any(String) });

    const production = await createTestApp({
      NODE_ENV: 'production',
      SESSION_SECRET: 's'.repeat(40),
      CODE_ENCRYPTION_KEY: 'k'.repeat(40),
      PUBLIC_URL: 'https://giftmart.example',
      ALLOW_SANDBOX_IN_PRODUCTION: 'true',
    });
    try {
      expect(production.config.NODE_ENV).toBe('production');
      expect(production.config.SMTP_URL).toBeUndefined();
      const res = await production.app.inject({ method: 'GET', url: '/api/dev/mailbox' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
    } finally {
      await production.close();
    }
  });

  it('refuses a malformed filter with a 400, never a 500', async () => {
    for (const q of [
      `to=${'a'.repeat(300)}@example.test`,
      'to=%00',
      'to=a%00@example.test',
      'to=%E0%A4%A',
      'to=a&to=b',
      'to=',
      'to=not-an-address',
    ]) {
      const res = await keptApp.app.inject({ method: 'GET', url: `/api/dev/mailbox?${q}` });
      expect(res.statusCode, `${q}: ${res.body.slice(0, 200)}`).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
  });

  it('is listed in the OpenAPI document with the notification routes', async () => {
    const doc = (await keptApp.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, { tags?: string[]; responses: Record<string, unknown> }>>;
    };
    expect(doc.paths['/api/dev/mailbox']?.get?.tags).toEqual(['dev']);
    expect(doc.paths['/api/v1/notifications']?.get?.tags).toEqual(['notifications']);
    expect(doc.paths['/api/v1/notifications/read']?.post?.responses).toHaveProperty('200');
    expect(JSON.stringify(doc.paths['/api/v1/notifications/stream']?.get?.responses['200'])).toContain(
      'text/event-stream',
    );
  });
});
