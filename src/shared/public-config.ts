/** The settings the web app reads from GET /api/v1/config. */
export interface PublicConfig {
  currency: string;
  supportEmail: string;
}

/** SUPPORT_EMAIL's default: the address the build pre-renders, which the server replaces with its own. */
export const DEFAULT_SUPPORT_EMAIL = 'support@giftmart.ng';

/**
 * The id of the `<script type="application/json">` a pre-rendered public page carries its config in: the
 * build writes the defaults, the server its own (src/server/plugins/web.ts), and the app, drawing over the
 * page, starts from it (no request, no "loading" in place of the address the page already showed).
 */
export const PUBLIC_CONFIG_ELEMENT_ID = 'public-config';

/** That element, holding `config` (`<` escaped, so no value can end the script). */
export function publicConfigScript(config: PublicConfig): string {
  const json = JSON.stringify({ currency: config.currency, supportEmail: config.supportEmail });
  return `<script type="application/json" id="${PUBLIC_CONFIG_ELEMENT_ID}">${json.replaceAll('<', '\\u003c')}</script>`;
}
