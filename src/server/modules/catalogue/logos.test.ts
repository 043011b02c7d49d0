import { randomUUID } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GiftCard } from '../../../shared/catalogue/schemas';
import {
  createTestApp,
  registerAndLogin,
  sameOrigin,
  tempStorage,
  type TestApp,
} from '../../../../tests/fixtures/test-app';
import {
  flatImage,
  logoForm,
  multipart,
  noiseImage,
  PNG_MAGIC,
  type ImageFormat,
} from '../../../../tests/fixtures/uploads';

/**
 * PUT /api/v1/businesses/:id/logo and GET /uploads/:key. Uploads go to a temporary folder of this file, so the
 * tests can look at what is stored. A refused file must leave everything as it was: the old logo in the
 * account, the old file served, and no new file on disk.
 */
let t: TestApp;
let uploads: Awaited<ReturnType<typeof tempStorage>>;
beforeAll(async () => {
  uploads = await tempStorage();
  t = await createTestApp({}, { storage: uploads.storage });
});
afterAll(async () => {
  await t.close();
  await uploads.remove();
});

type Account = Awaited<ReturnType<typeof registerAndLogin>>;

const LOGO_URL = /^\/uploads\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(png|jpg|webp)$/;
const DAMAGED = 'That image is damaged or incomplete. Please choose another file.';
const NOT_AN_IMAGE = 'The logo must be a PNG, JPEG or WebP image.';
const NO_FILE = 'Please choose an image file for the logo.';

const business = (app: TestApp = t) => registerAndLogin(app.app, 'business');

/** A small real PNG whose IHDR is rewritten to claim width×height (its CRC recomputed): a header-only giant. */
async function pngSaying(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(await flatImage('png', 1, 1));
  // Signature (8), IHDR length (4), type (4), then width and height; the CRC covers type and data (17 bytes).
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}

function putLogo(
  who: Account,
  form: { payload: Buffer; headers: Record<string, string> },
  businessId = who.account.id,
) {
  return who.request({
    method: 'PUT',
    url: `/api/v1/businesses/${businessId}/logo`,
    payload: form.payload,
    headers: form.headers,
  });
}

async function uploadLogo(
  who: Account,
  image: Buffer,
  filename = 'logo.png',
  contentType = 'image/png',
): Promise<string> {
  const res = await putLogo(who, logoForm(image, filename, contentType));
  expect(res.statusCode, res.body).toBe(200);
  const { logoUrl } = res.json() as { logoUrl: string };
  expect(logoUrl).toMatch(LOGO_URL);
  return logoUrl;
}

async function sessionLogo(who: Account, app: TestApp = t): Promise<string | null> {
  const res = await app.app.inject({
    method: 'GET',
    url: '/api/v1/auth/session',
    headers: { cookie: who.cookie },
  });
  expect(res.statusCode).toBe(200);
  return (res.json() as { account: { logoUrl: string | null } }).account.logoUrl;
}

function fetchFile(url: string, app: TestApp = t) {
  return app.app.inject({ method: 'GET', url });
}

const files = async (dir = uploads.dir) => (await readdir(dir).catch(() => [] as string[])).sort();

function expectRefused(res: LightMyRequestResponse, status: number, code: string, message: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toEqual({ code, message, details: { fieldErrors: { logo: [message] } } });
}

/** What a refused upload must leave as it was. */
async function expectOldLogoKept(
  who: Account,
  oldUrl: string,
  before: string[],
  app: TestApp = t,
  dir = uploads.dir,
) {
  expect(await sessionLogo(who, app)).toBe(oldUrl);
  const old = await fetchFile(oldUrl, app);
  expect(old.statusCode).toBe(200);
  expect(old.headers['content-type']).toBe('image/png');
  expect(await files(dir)).toEqual(before);
}

describe('PUT /api/v1/businesses/:businessId/logo', () => {
  it.each([
    ['png', 'image/png', 'png'],
    ['jpeg', 'image/jpeg', 'jpg'],
    ['webp', 'image/webp', 'webp'],
  ] as [ImageFormat, string, string][])(
    'accepts a %s and serves it with safe headers',
    async (format, contentType, extension) => {
      const owner = await business();
      const image = await flatImage(format);
      const res = await putLogo(owner, logoForm(image, `logo.${extension}`, contentType));
      expect(res.statusCode, res.body).toBe(200);
      const account = res.json() as { id: string; role: string; name: string; logoUrl: string };
      expect(account).toEqual({
        id: owner.account.id,
        role: 'business',
        name: owner.input.name,
        email: owner.input.email,
        username: null,
        phoneNumber: expect.any(String),
        logoUrl: expect.stringMatching(LOGO_URL),
        createdAt: expect.any(String),
      });
      expect(account.logoUrl.endsWith(`.${extension}`)).toBe(true);
      expect(await sessionLogo(owner)).toBe(account.logoUrl);

      const served = await fetchFile(account.logoUrl);
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe(contentType);
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(served.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
      const meta = await sharp(served.rawPayload).metadata();
      expect(meta).toMatchObject({ format, width: 64, height: 64 });
      expect(existsSync(path.join(uploads.dir, path.basename(account.logoUrl)))).toBe(true);
    },
  );

  it('shows the new logo on the public profile and on the business’s cards', async () => {
    const owner = await business();
    const created = await owner.request({
      method: 'POST',
      url: '/api/v1/gift-cards',
      payload: { amount: 100_000, colour: '#112233' },
    });
    expect(created.statusCode).toBe(201);
    const card = created.json() as GiftCard;
    expect(card.brandLogoUrl).toBeNull();
    const logoUrl = await uploadLogo(owner, await flatImage('png'));
    expect((await fetchFile(`/api/v1/businesses/${owner.account.id}`)).json()).toMatchObject({ logoUrl });
    expect((await fetchFile(`/api/v1/gift-cards/${card.id}`)).json()).toMatchObject({
      brandLogoUrl: logoUrl,
    });
  });

  it('stores the file under a generated name, whatever the uploaded name', async () => {
    const owner = await business();
    const logoUrl = await uploadLogo(owner, await flatImage('png'), '../../secrets.json');
    expect(logoUrl).toMatch(LOGO_URL);
    expect(logoUrl).not.toContain('secrets');
  });

  it('re-encodes the image, dropping anything hidden after it', async () => {
    const owner = await business();
    const hidden = Buffer.from('<script>alert(document.cookie)</script>');
    const logoUrl = await uploadLogo(owner, Buffer.concat([await flatImage('png'), hidden]));
    const served = await fetchFile(logoUrl);
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.includes(hidden)).toBe(false);
    expect(served.rawPayload.subarray(0, 8).equals(PNG_MAGIC)).toBe(true);
  });

  it('deletes the previous file after a second upload', async () => {
    const owner = await business();
    const first = await uploadLogo(owner, await flatImage('png'));
    const second = await uploadLogo(owner, await flatImage('jpeg'), 'logo.jpg', 'image/jpeg');
    expect(second).not.toBe(first);
    expect(await sessionLogo(owner)).toBe(second);
    const old = await fetchFile(first);
    expect(old.statusCode).toBe(404);
    expect(old.json()).toEqual({ code: 'NOT_FOUND', message: 'That file was not found.' });
    expect(existsSync(path.join(uploads.dir, path.basename(first)))).toBe(false);
    expect((await fetchFile(second)).statusCode).toBe(200);
  });

  it('accepts a logo between 1 MB and 2 MB (over the JSON body limit, under the logo limit)', async () => {
    const owner = await business();
    const image = await noiseImage('png', 700, 700);
    expect(image.length).toBeGreaterThan(1024 * 1024 + 1000);
    expect(image.length).toBeLessThan(2 * 1024 * 1024);
    await uploadLogo(owner, image);
  });

  it('accepts an image exactly 4096 pixels wide', async () => {
    const owner = await business();
    const logoUrl = await uploadLogo(owner, await flatImage('png', 4096, 2));
    expect(await sharp((await fetchFile(logoUrl)).rawPayload).metadata()).toMatchObject({
      width: 4096,
      height: 2,
    });
  });

  describe('refuses a file that is not a whole PNG, JPEG or WebP, and keeps the old logo', () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>';
    const cases: [
      string,
      () => Promise<{ body: Buffer | string; filename: string; type: string }>,
      string,
    ][] = [
      ['an SVG', async () => ({ body: svg, filename: 'logo.svg', type: 'image/svg+xml' }), NOT_AN_IMAGE],
      [
        'an HTML file named logo.png sent as image/png',
        async () => ({
          body: '<!doctype html><html><script>alert(1)</script></html>',
          filename: 'logo.png',
          type: 'image/png',
        }),
        NOT_AN_IMAGE,
      ],
      [
        'a text file renamed .jpg',
        async () => ({ body: 'just some text, honest', filename: 'logo.jpg', type: 'image/jpeg' }),
        NOT_AN_IMAGE,
      ],
      [
        'a GIF',
        async () => ({
          body: await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
            .gif()
            .toBuffer(),
          filename: 'logo.gif',
          type: 'image/gif',
        }),
        NOT_AN_IMAGE,
      ],
      [
        'a truncated PNG (the first half of a real one)',
        async () => {
          const png = await noiseImage('png', 64, 64);
          return {
            body: png.subarray(0, Math.floor(png.length / 2)),
            filename: 'logo.png',
            type: 'image/png',
          };
        },
        DAMAGED,
      ],
      [
        'a truncated JPEG',
        async () => {
          const jpeg = await noiseImage('jpeg', 64, 64);
          return {
            body: jpeg.subarray(0, Math.floor(jpeg.length / 2)),
            filename: 'logo.jpg',
            type: 'image/jpeg',
          };
        },
        DAMAGED,
      ],
      [
        'PNG magic bytes and garbage',
        async () => ({
          body: Buffer.concat([PNG_MAGIC, Buffer.alloc(500, 7)]),
          filename: 'logo.png',
          type: 'image/png',
        }),
        DAMAGED,
      ],
      [
        'a PNG 4097 pixels wide',
        async () => ({ body: await flatImage('png', 4097, 10), filename: 'logo.png', type: 'image/png' }),
        'The logo can be at most 4096×4096 pixels.',
      ],
      [
        'a PNG 4097 pixels high',
        async () => ({ body: await flatImage('png', 10, 4097), filename: 'logo.png', type: 'image/png' }),
        'The logo can be at most 4096×4096 pixels.',
      ],
      [
        'a PNG of 4097×4097 (over the pixel limit, not only one side)',
        async () => ({ body: await flatImage('png', 4097, 4097), filename: 'logo.png', type: 'image/png' }),
        'The logo can be at most 4096×4096 pixels.',
      ],
      [
        'a PNG whose header says 20000×20000',
        async () => ({ body: await pngSaying(20_000, 20_000), filename: 'logo.png', type: 'image/png' }),
        'The logo can be at most 4096×4096 pixels.',
      ],
    ];

    it.each(cases)('%s', async (_name, make, message) => {
      const owner = await business();
      const oldUrl = await uploadLogo(owner, await flatImage('png'));
      const before = await files();
      const { body, filename, type } = await make();
      expectRefused(await putLogo(owner, logoForm(body, filename, type)), 400, 'VALIDATION_FAILED', message);
      await expectOldLogoKept(owner, oldUrl, before);
    });
  });

  it('refuses a file over the configured limit with 413 and says the limit', async () => {
    const small = await tempStorage();
    const strict = await createTestApp({ LOGO_MAX_BYTES: '50000' }, { storage: small.storage });
    try {
      const owner = await business(strict);
      const first = await putLogo(owner, logoForm(await flatImage('png')));
      expect(first.statusCode, first.body).toBe(200);
      const oldUrl = (first.json() as { logoUrl: string }).logoUrl;
      const before = await files(small.dir);
      const big = await noiseImage('png', 200, 200);
      expect(big.length).toBeGreaterThan(50_000);
      const res = await putLogo(owner, logoForm(big));
      expectRefused(res, 413, 'PAYLOAD_TOO_LARGE', 'That file is too large. A logo can be at most 49 KB.');
      await expectOldLogoKept(owner, oldUrl, before, strict, small.dir);
    } finally {
      await strict.close();
      await small.remove();
    }
  });

  it('refuses a file over the default 2 MB with 413', async () => {
    const owner = await business();
    const oldUrl = await uploadLogo(owner, await flatImage('png'));
    const before = await files();
    const big = Buffer.concat([PNG_MAGIC, Buffer.alloc(Math.round(2.1 * 1024 * 1024), 1)]);
    const res = await putLogo(owner, logoForm(big));
    expectRefused(res, 413, 'PAYLOAD_TOO_LARGE', 'That file is too large. A logo can be at most 2 MB.');
    await expectOldLogoKept(owner, oldUrl, before);
  });

  describe('refuses a request without a file with 400', () => {
    it.each([
      ['only a text field', () => multipart([{ name: 'name', body: 'my logo' }])],
      ['the logo as a text field', () => multipart([{ name: 'logo', body: 'logo.png' }])],
      [
        'the file in another field',
        async () =>
          multipart([
            { name: 'image', body: await flatImage('png'), filename: 'logo.png', contentType: 'image/png' },
          ]),
      ],
      ['an empty file', () => logoForm(Buffer.alloc(0))],
      ['no parts at all', () => multipart([])],
    ])('%s', async (_name, make) => {
      const owner = await business();
      const res = await putLogo(owner, await make());
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: NO_FILE });
      expect(await sessionLogo(owner)).toBeNull();
    });

    it.each([
      ['JSON instead of a form', { payload: { logo: 'x' } }],
      ['plain text instead of a form', { payload: 'logo.png', headers: { 'content-type': 'text/plain' } }],
      ['no body at all', {}],
    ] as [string, Partial<InjectOptions>][])('%s', async (_name, options) => {
      const owner = await business();
      const res = await owner.request({
        method: 'PUT',
        url: `/api/v1/businesses/${owner.account.id}/logo`,
        ...options,
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: NO_FILE });
      expect(await sessionLogo(owner)).toBeNull();
    });
  });

  it('refuses two files in one upload and keeps the old logo', async () => {
    const owner = await business();
    const oldUrl = await uploadLogo(owner, await flatImage('png'));
    const before = await files();
    const png = await flatImage('png');
    const res = await putLogo(
      owner,
      multipart([
        { name: 'logo', body: png, filename: 'a.png', contentType: 'image/png' },
        { name: 'logo', body: png, filename: 'b.png', contentType: 'image/png' },
      ]),
    );
    expectRefused(res, 400, 'VALIDATION_FAILED', 'Send one image file, in the field "logo".');
    await expectOldLogoKept(owner, oldUrl, before);
  });

  describe('refuses a form that cannot be read with 400 (not 500) and keeps the old logo', () => {
    const unreadable = 'Send the logo as multipart/form-data in the field "logo".';
    it.each([
      [
        'a body cut off in the middle of the file',
        async () => {
          const form = logoForm(await flatImage('png'));
          return { payload: form.payload.subarray(0, form.payload.length - 60), headers: form.headers };
        },
      ],
      [
        'a boundary that does not match the body',
        async () => ({ payload: logoForm(await flatImage('png')).payload, headers: logoForm('x').headers }),
      ],
      [
        'a multipart content type without a boundary',
        async () => ({
          payload: logoForm(await flatImage('png')).payload,
          headers: { 'content-type': 'multipart/form-data' },
        }),
      ],
    ])('%s', async (_name, make) => {
      const owner = await business();
      const oldUrl = await uploadLogo(owner, await flatImage('png'));
      const before = await files();
      const res = await putLogo(owner, await make());
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual({ code: 'VALIDATION_FAILED', message: unreadable });
      await expectOldLogoKept(owner, oldUrl, before);
    });

    it('too many fields', async () => {
      const owner = await business();
      const fields = Array.from({ length: 8 }, (_, i) => ({ name: `f${i}`, body: 'x' }));
      const res = await putLogo(
        owner,
        multipart([...fields, { name: 'logo', body: await flatImage('png'), filename: 'l.png' }]),
      );
      expectRefused(res, 400, 'VALIDATION_FAILED', 'Send one image file, in the field "logo".');
      expect(await sessionLogo(owner)).toBeNull();
    });
  });

  it('refuses another business’s id with 403 and changes neither logo', async () => {
    const owner = await business();
    const other = await business();
    const oldUrl = await uploadLogo(owner, await flatImage('png'));
    const before = await files();
    const res = await putLogo(
      other,
      logoForm(await flatImage('webp'), 'logo.webp', 'image/webp'),
      owner.account.id,
    );
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ code: 'FORBIDDEN', message: 'You can only act on your own business.' });
    await expectOldLogoKept(owner, oldUrl, before);
    expect(await sessionLogo(other)).toBeNull();
  });

  it('refuses a user with 403, a signed-out request with 401 and a cross-site one (CSRF)', async () => {
    const owner = await business();
    const buyer = await registerAndLogin(t.app, 'user');
    const png = await flatImage('png');
    const asUser = await putLogo(buyer, logoForm(png), owner.account.id);
    expect(asUser.statusCode).toBe(403);
    expect(asUser.json()).toEqual({ code: 'FORBIDDEN', message: 'Only a business can do this.' });
    const asOwnUser = await putLogo(buyer, logoForm(png), buyer.account.id);
    expect(asOwnUser.statusCode).toBe(403);

    const form = logoForm(png);
    const signedOut = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/businesses/${owner.account.id}/logo`,
      payload: form.payload,
      headers: form.headers,
    });
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.json()).toMatchObject({ code: 'UNAUTHENTICATED' });

    const crossSite = await owner.request({
      method: 'PUT',
      url: `/api/v1/businesses/${owner.account.id}/logo`,
      payload: form.payload,
      headers: { ...form.headers, origin: 'https://evil.example' },
    });
    expect(crossSite.statusCode).toBe(403);
    expect(crossSite.json()).toMatchObject({ code: 'CSRF_REJECTED' });
    expect(await sessionLogo(owner)).toBeNull();
  });

  it('refuses a signed-out, user or foreign upload before reading its body (catalogue and legacy routes)', async () => {
    const owner = await business();
    const other = await business();
    const buyer = await registerAndLogin(t.app, 'user');
    const form = logoForm(Buffer.concat([PNG_MAGIC, Buffer.alloc(1_800_000, 7)]));
    const CHUNK = 16 * 1024;
    for (const [method, url] of [
      ['PUT', `/api/v1/businesses/${owner.account.id}/logo`],
      ['PATCH', `/api/updatebusinesslogo/${owner.account.id}`],
    ] as const) {
      for (const [who, status] of [
        [{}, 401],
        [{ cookie: buyer.cookie, ...sameOrigin }, 403],
        [{ cookie: other.cookie, ...sameOrigin }, 403],
      ] as const) {
        let sent = 0;
        // The body is handed over a chunk at a time, as it would arrive, so what the server read is countable.
        const body = Readable.from(
          (function* () {
            for (let at = 0; at < form.payload.length; at += CHUNK) {
              const chunk = form.payload.subarray(at, at + CHUNK);
              sent += chunk.length;
              yield chunk;
            }
          })(),
        );
        const res = await t.app.inject({
          method,
          url,
          payload: body,
          headers: { ...form.headers, 'content-length': String(form.payload.length), ...who },
        });
        expect(res.statusCode, `${url} ${res.body}`).toBe(status);
        expect(sent, url).toBeLessThan(form.payload.length / 4);
        body.destroy();
      }
    }
    expect(await sessionLogo(owner)).toBeNull();
  });

  it('refuses a malformed business id with 400', async () => {
    const owner = await business();
    const res = await putLogo(owner, logoForm(await flatImage('png')), 'not-a-uuid');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: 'That is not a business id.' });
  });
});

describe('GET /uploads/:key', () => {
  it.each([
    ['an unknown key', `/uploads/${randomUUID()}.png`],
    ['a key of another type', `/uploads/${randomUUID()}.svg`],
    ['a path outside the folder', '/uploads/..%2Fsecrets.json'],
    ['a name that is not a generated key', '/uploads/logo.png'],
  ])('answers %s with a JSON 404', async (_name, url) => {
    const res = await fetchFile(url);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('OpenAPI document', () => {
  it('describes the logo upload as multipart/form-data with a binary field "logo"', async () => {
    const doc = (await fetchFile('/api/docs/json')).json() as {
      paths: Record<
        string,
        Record<
          string,
          {
            requestBody?: { content: Record<string, { schema: { $ref?: string } }> };
            responses: Record<string, unknown>;
          }
        >
      >;
      components: { schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }> };
    };
    const put = doc.paths['/api/v1/businesses/{businessId}/logo']?.put;
    expect(put).toBeDefined();
    const schema = put!.requestBody?.content['multipart/form-data']?.schema;
    expect(schema).toBeDefined();
    const resolved = schema!.$ref ? doc.components.schemas[schema!.$ref.split('/').pop()!] : schema;
    expect(resolved).toMatchObject({
      properties: { logo: { type: 'string', format: 'binary' } },
      required: ['logo'],
    });
    expect(Object.keys(put!.responses).sort()).toEqual(['200', '400', '401', '403', '404', '413']);
    expect(doc.paths['/uploads/{key}']?.get?.responses).toHaveProperty('200');
  });
});
