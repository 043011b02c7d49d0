/** Numbers the seed fixed (seed §1, §2, §7, §8, §9), in one place. */
export const APP_KEY = 'giftmart';
export const PERSIST_KEY = `persist:${APP_KEY}`;
export const PERSIST_VERSION = 1;
export const REHYDRATE_TIMEOUT_MS = 5000;

export const SUCCESS_DIALOG_MS = 1000;
export const PHONE_MIN_LENGTH = 11;

export const FIXED_BAR_AFTER_PX = 250;
export const SCROLL_TOP_AFTER_PX = 400;
/** Landing anchors: About, How it works / Features, Get started. */
export const ANCHORS = { about: 900, features: 1850, getStarted: 2950 } as const;
export const LAZY_SECTION_DELAY_MS = 1000;

export const BREAKPOINTS = { sm: 768, md: 800, lg: 960, xl: 1051 } as const;
export const SIDEBAR_WIDE_PX = 250;
export const SIDEBAR_NARROW_PX = 60;
export const MOBILE_MENU = { width: 250, height: 400 } as const;
export const CARD_TILE = { width: 270, height: 170 } as const;

export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

export const QUERY_RETRIES = 3;
export const RETRY_BASE_MS = 1000;
export const RETRY_MAX_MS = 30_000;
export const CACHE_TIME_MS = 5 * 60 * 1000;
