import type { MailContentColumn } from '../../db/schema/notifications';
import { escapeHtml } from '../../lib/html';

/** The brand as the web app draws it (src/web/index.css: brand-600, the wordmark's amber, slate text). */
const BRAND = '#4f46e5';
const BRAND_DARK = '#4338ca';
const ACCENT = '#f59e0b';
const TEXT = '#0f172a';
const MUTED = '#475569';
const PAGE = '#f8fafc';
const FONT = "-apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/**
 * An app path as an absolute link on this site. Whatever the path holds (`//elsewhere`, `javascript:`,
 * a full URL), the link stays on `siteUrl`: it is only ever appended to it.
 */
export function absoluteLink(siteUrl: string, path: string): string {
  const tail = path.trim().replace(/^[/\\]+/, '');
  return `${siteUrl}/${encodeURI(decodeURISafe(tail))}`;
}

function decodeURISafe(value: string): string {
  try {
    return decodeURI(value);
  } catch {
    return value;
  }
}

/** No control characters (a header is one line; text parts keep their line breaks). */
function oneLine(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
}

function plain(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '').trim();
}

/**
 * Draws an outbox row as a mail: plain text, and simple HTML with inline styles in a table (what mail
 * clients render alike), at most 560 px wide, in Giftmart's colours. Links are absolute on `siteUrl`.
 */
export function renderMail(
  mail: { subject: string; content: MailContentColumn; accountId?: string | null },
  siteUrl: string,
): RenderedMail {
  // Mail to an address with no account (a gift's recipient) cannot say "your account".
  const why = mail.accountId
    ? 'You get this mail because of your Giftmart account.'
    : 'You get this mail because someone used Giftmart to send you something. If it was not meant for you, ignore it.';
  const subject = oneLine(mail.subject) || 'Giftmart';
  const heading = oneLine(mail.content.heading);
  const paragraphs = (mail.content.paragraphs ?? []).map(plain).filter(Boolean);
  const action = mail.content.action
    ? { label: oneLine(mail.content.action.label), href: absoluteLink(siteUrl, mail.content.action.path) }
    : undefined;
  const home = `${siteUrl}/`;

  const text = [
    'Giftmart',
    '',
    heading,
    '',
    ...paragraphs.flatMap((p) => [p, '']),
    ...(action ? [`${action.label}: ${action.href}`, ''] : []),
    '—',
    `Giftmart · ${home}`,
    why,
    '',
  ].join('\n');

  const p = (body: string) =>
    `<p style="margin:0 0 16px;font-family:${FONT};font-size:16px;line-height:24px;color:${TEXT};">${body}</p>`;
  const html = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${escapeHtml(subject)}</title>
</head>
<body style="margin:0;padding:0;background-color:${PAGE};">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:${PAGE};">
<tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:560px;background-color:#ffffff;border:1px solid #e2e8f0;border-radius:12px;">
<tr><td style="padding:20px 28px;border-bottom:4px solid ${BRAND};">
<a href="${escapeHtml(home)}" style="font-family:${FONT};font-size:22px;font-weight:800;color:${TEXT};text-decoration:none;">Gift<span style="color:${BRAND};">mart</span></a>
</td></tr>
<tr><td style="padding:28px;">
<h1 style="margin:0 0 16px;font-family:${FONT};font-size:22px;line-height:30px;color:${TEXT};">${escapeHtml(heading)}</h1>
${paragraphs.map((para) => p(escapeHtml(para).replace(/\r?\n/g, '<br>'))).join('\n')}
${
  action
    ? `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 16px;"><tr><td style="border-radius:8px;background-color:${BRAND};">
<a href="${escapeHtml(action.href)}" style="display:inline-block;padding:12px 22px;font-family:${FONT};font-size:15px;font-weight:600;color:#ffffff;text-decoration:none;border-radius:8px;border:1px solid ${BRAND_DARK};">${escapeHtml(action.label)}</a>
</td></tr></table>
<p style="margin:0;font-family:${FONT};font-size:13px;line-height:20px;color:${MUTED};">Or open this address: <a href="${escapeHtml(action.href)}" style="color:${BRAND};word-break:break-all;">${escapeHtml(action.href)}</a></p>`
    : ''
}
</td></tr>
<tr><td style="padding:16px 28px;border-top:1px solid #e2e8f0;font-family:${FONT};font-size:12px;line-height:18px;color:${MUTED};">
<span style="color:${ACCENT};">&#9632;</span> ${escapeHtml(why)}
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
  return { subject, text, html };
}
