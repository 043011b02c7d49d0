import type Sharp from 'sharp';
import { AppError } from '../../lib/app-error';

export const MAX_IMAGE_SIDE = 4096;

let loaded: Promise<typeof Sharp> | undefined;
/**
 * sharp (libvips) is loaded on the first logo upload, not at start: it is about 20 MiB of the server's
 * resident memory (issue 14's memory target) and most instances rarely see an upload.
 */
function loadSharp(): Promise<typeof Sharp> {
  loaded ??= import('sharp').then((module) => module.default);
  return loaded;
}

type Kind = 'png' | 'jpg' | 'webp';

/** What the bytes say the file is: PNG, JPEG or WebP signatures; anything else (SVG, HTML, text) is null. */
export function sniffImage(bytes: Buffer): Kind | null {
  if (
    bytes.length >= 8 &&
    bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpg';
  if (
    bytes.length >= 12 &&
    bytes.toString('ascii', 0, 4) === 'RIFF' &&
    bytes.toString('ascii', 8, 12) === 'WEBP'
  )
    return 'webp';
  return null;
}

const refused = (message: string) =>
  new AppError('VALIDATION_FAILED', message, { details: { fieldErrors: { logo: [message] } } });

/**
 * Accepts a logo only when its bytes are a whole PNG, JPEG or WebP of at most 4096×4096, then re-encodes
 * it (dropping metadata and anything hidden after the image) in its own format.
 */
export async function checkLogo(bytes: Buffer): Promise<{ body: Buffer; extension: Kind }> {
  const kind = sniffImage(bytes);
  if (!kind) throw refused('The logo must be a PNG, JPEG or WebP image.');
  const sharp = await loadSharp();
  let width = 0;
  let height = 0;
  try {
    // Only the header is read here, so no pixel limit: with one, sharp refuses a 4097×4097 image before
    // saying its size, and the business would be told the file is damaged instead of too large.
    const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
    width = meta.width ?? 0;
    height = meta.height ?? 0;
  } catch {
    throw refused('That image is damaged or incomplete. Please choose another file.');
  }
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE) {
    throw refused(`The logo can be at most ${MAX_IMAGE_SIDE}×${MAX_IMAGE_SIDE} pixels.`);
  }
  try {
    // failOn 'truncated' refuses an image whose data stops early; limitInputPixels still guards memory.
    const image = sharp(bytes, { failOn: 'truncated', limitInputPixels: MAX_IMAGE_SIDE * MAX_IMAGE_SIDE });
    const pipeline = image.rotate();
    const body =
      kind === 'png'
        ? await pipeline.png().toBuffer()
        : kind === 'jpg'
          ? await pipeline.jpeg({ quality: 90 }).toBuffer()
          : await pipeline.webp({ quality: 90 }).toBuffer();
    return { body, extension: kind };
  } catch {
    throw refused('That image is damaged or incomplete. Please choose another file.');
  }
}

export const contentTypes: Record<Kind, string> = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp' };
