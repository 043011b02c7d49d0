import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

/**
 * Where uploaded files live. The disk implementation keeps them under DATA_DIR/uploads; an S3-compatible
 * store can implement the same three calls so several app instances share uploads.
 */
export interface Storage {
  put(body: Buffer, extension: string): Promise<string>;
  open(key: string): Promise<Readable | null>;
  delete(key: string): Promise<void>;
}

/** Keys are generated here (uuid + extension) and checked on the way back, so no path can escape the folder. */
export const STORAGE_KEY = /^[0-9a-f-]{36}\.(png|jpg|webp)$/;

export function diskStorage(root: string): Storage {
  return {
    async put(body, extension) {
      await mkdir(root, { recursive: true });
      const key = `${randomUUID()}.${extension}`;
      await writeFile(path.join(root, key), body, { flag: 'wx' });
      return key;
    },
    async open(key) {
      if (!STORAGE_KEY.test(key)) return null;
      const file = path.join(root, key);
      try {
        await stat(file);
      } catch {
        return null;
      }
      return createReadStream(file);
    },
    async delete(key) {
      if (STORAGE_KEY.test(key)) await rm(path.join(root, key), { force: true });
    },
  };
}
