/**
 * A gift's link carries its token in the fragment (`/gifts/<id>#token=…`), which never reaches a server.
 * The landing page keeps it in this tab's sessionStorage, under the gift's id, so it survives a detour
 * through sign-up and log-in (which go back to `/gifts/<id>` without it), and is forgotten once used.
 */
const key = (giftId: string) => `giftmart:gift-token:${giftId}`;
const TOKEN = /^[A-Za-z0-9_-]{1,200}$/;

/** The token in a location hash (`#token=…`), if it has a valid one. */
export function tokenFromHash(hash: string): string | null {
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('token');
  return token && TOKEN.test(token) ? token : null;
}

export function rememberGiftToken(giftId: string, token: string): void {
  try {
    sessionStorage.setItem(key(giftId), token);
  } catch {
    // Storage may be unavailable (private mode); the token in the address still works on this visit.
  }
}

export function recallGiftToken(giftId: string): string | null {
  try {
    const token = sessionStorage.getItem(key(giftId));
    return token && TOKEN.test(token) ? token : null;
  } catch {
    return null;
  }
}

export function forgetGiftToken(giftId: string): void {
  try {
    sessionStorage.removeItem(key(giftId));
  } catch {
    // Nothing kept.
  }
}
