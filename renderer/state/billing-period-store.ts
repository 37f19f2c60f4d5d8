import Cookies from 'js-cookie';
import { create } from 'zustand';

/** Cookie name of the pricing toggle: the install's prefix plus pricing_isBilledAnnually. */
export function billingCookieName(cookiePrefix: string): string {
  return `${cookiePrefix}pricing_isBilledAnnually`;
}

/** Reads the remembered billing period; anything but "false" means annual (the default). */
export function readIsBilledAnnually(cookiePrefix: string): boolean {
  return Cookies.get(billingCookieName(cookiePrefix)) !== 'false';
}

type BillingPeriodState = {
  isBilledAnnually: boolean;
  /** Loads the choice from the cookie (pricing page mount). */
  loadBillingPeriod: (cookiePrefix: string) => void;
  /** Records a new choice in state and in the cookie. */
  chooseBillingPeriod: (cookiePrefix: string, isBilledAnnually: boolean) => void;
};

/** The pricing page's annual/monthly choice, remembered in a cookie for a year. */
export const useBillingPeriodStore = create<BillingPeriodState>((set) => ({
  isBilledAnnually: true,
  loadBillingPeriod: (cookiePrefix) =>
    set({ isBilledAnnually: readIsBilledAnnually(cookiePrefix) }),
  chooseBillingPeriod: (cookiePrefix, isBilledAnnually) => {
    Cookies.set(billingCookieName(cookiePrefix), String(isBilledAnnually), {
      expires: 365,
      sameSite: 'lax',
      path: '/',
    });
    set({ isBilledAnnually });
  },
}));
