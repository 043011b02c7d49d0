import { closeSync, existsSync, openSync, statSync, writeFileSync, writeSync } from 'node:fs';
import QRCode from 'qrcode';

/**
 * A video file for Chromium's fake camera (`--use-file-for-fake-video-capture`), written in Node: a few
 * grey-scale frames of a QR code on white, as YUV4MPEG2 (4:2:0, full-range luma, neutral chroma).
 * Chromium reads the file when a page opens the camera, so a test can write the QR it needs just before
 * pressing Scan, at a path fixed when the browser launched.
 */
export const FAKE_VIDEO = { width: 640, height: 480, frames: 5 } as const;
const MODULE_PX = 8;
const QUIET_MODULES = 4;

/** Luma plane: white, with the QR (dark modules, 8 px each, a 4-module quiet zone) in the middle. */
function lumaPlane(text: string | null): Buffer {
  const { width, height } = FAKE_VIDEO;
  const y = Buffer.alloc(width * height, 255);
  if (!text) return y;
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const side = (modules.size + 2 * QUIET_MODULES) * MODULE_PX;
  if (side > height) throw new Error(`a QR of ${modules.size} modules does not fit a ${height}-pixel frame`);
  const left = Math.floor((width - modules.size * MODULE_PX) / 2);
  const top = Math.floor((height - modules.size * MODULE_PX) / 2);
  for (let row = 0; row < modules.size; row += 1) {
    for (let col = 0; col < modules.size; col += 1) {
      if (!modules.get(row, col)) continue;
      for (let dy = 0; dy < MODULE_PX; dy += 1) {
        const start = (top + row * MODULE_PX + dy) * width + left + col * MODULE_PX;
        y.fill(0, start, start + MODULE_PX);
      }
    }
  }
  return y;
}

/**
 * Writes the .y4m: a QR of `text`, or (null) a blank white picture to launch the browser with. Chromium keeps
 * reading the file it opened first (a new file renamed over it was never seen), so a new picture is written
 * over the old one in place, and never truncated first: once, in CI, the Scan after a rewrite said "No camera
 * was found on this device", most likely from a frame read while the file was empty.
 */
export function writeFakeCamera(file: string, text: string | null): void {
  const { width, height, frames } = FAKE_VIDEO;
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`, 'ascii');
  const chroma = Buffer.alloc((width / 2) * (height / 2), 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n', 'ascii'), lumaPlane(text), chroma, chroma]);
  const video = Buffer.concat([header, ...Array.from({ length: frames }, () => frame)]);
  if (!existsSync(file) || statSync(file).size !== video.length) {
    writeFileSync(file, video);
    return;
  }
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, video, 0, video.length, 0);
  } finally {
    closeSync(fd);
  }
}
