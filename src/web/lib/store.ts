import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { Account } from '../../shared/accounts/schemas';
import type { GiftCard } from '../../shared/catalogue/schemas';
import { PERSIST_KEY, PERSIST_VERSION } from './constants';

/**
 * The seed's client slice "GiftCard" (seed §3, §4): the profile snapshot that picks the dashboard.
 * It is persisted under `persist:giftmart`, version 1, and never holds a token or secret — the session
 * itself is an httpOnly cookie the page cannot read.
 */
export interface GiftCardState {
  bizClient: Account | null;
  userData: Account | null;
  DataCard: GiftCard | null;
  login(account: Account): void;
  Userlogin(account: Account): void;
  logout(): void;
  Userlogout(): void;
  creatingCard(card: GiftCard): void;
  /** Forget everything (the server said the session is gone). */
  reset(): void;
}

export const useGiftCardStore = create<GiftCardState>()(
  persist(
    (set) => ({
      bizClient: null,
      userData: null,
      DataCard: null,
      login: (account) => set({ bizClient: account, userData: null }),
      Userlogin: (account) => set({ userData: account, bizClient: null }),
      logout: () => set({ bizClient: null, DataCard: null }),
      Userlogout: () => set({ userData: null, DataCard: null }),
      creatingCard: (card) => set({ DataCard: card }),
      reset: () => set({ bizClient: null, userData: null, DataCard: null }),
    }),
    {
      name: PERSIST_KEY,
      version: PERSIST_VERSION,
      storage: createJSONStorage(() => localStorage),
      partialize: ({ bizClient, userData, DataCard }) => ({ bizClient, userData, DataCard }),
    },
  ),
);

export function setSignedIn(account: Account): void {
  const store = useGiftCardStore.getState();
  if (account.role === 'business') store.login(account);
  else store.Userlogin(account);
}

/**
 * Resolves once the persisted profile is read back (seed §1: rehydration time-out 5000 ms). With
 * localStorage this is immediate; the time-out keeps a broken storage from holding the app back.
 */
export function whenHydrated(timeoutMs: number): Promise<void> {
  if (useGiftCardStore.persist.hasHydrated()) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, timeoutMs);
    useGiftCardStore.persist.onFinishHydration(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
