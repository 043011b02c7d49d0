import type { Config } from '../env';

/**
 * The address people and providers reach this server at, without a trailing slash: PUBLIC_URL, or this
 * machine's own port when it is unset (the embedded default). Links in mail and provider callbacks use it.
 */
export function publicUrl(config: Pick<Config, 'PUBLIC_URL' | 'PORT'>): string {
  return (config.PUBLIC_URL ?? `http://127.0.0.1:${config.PORT}`).replace(/\/+$/, '');
}
