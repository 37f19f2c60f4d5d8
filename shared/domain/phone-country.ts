import type { Store } from '#shared/api/catalog.ts';

// Apple's directory locales end in the country ("en_HK", "zh_CN"); read without Intl or the
// catalog so the account page stays light.
const LOCALE_PATTERN = /^[a-z]{2,3}_([A-Z]{2})$/;

/** The phone field's country when nothing says otherwise (spec: "default country US"). */
export const DEFAULT_PHONE_COUNTRY = 'US';

/**
 * The country a new phone number most likely belongs to: that of the store the person's first
 * search watches (a shopper near Causeway Bay has a Hong Kong number), else the US. Stores join
 * countries through their directory locale (`en_HK` -> HK).
 */
export function choosePhoneCountry(
  searches: readonly { store_id: string }[],
  stores: readonly Pick<Store, 'store_id' | 'country_locale'>[],
): string {
  const localeById = new Map(stores.map((store) => [store.store_id, store.country_locale]));
  for (const search of searches) {
    const locale = localeById.get(search.store_id);
    const countryCode = locale === undefined ? undefined : LOCALE_PATTERN.exec(locale)?.[1];
    if (countryCode !== undefined) return countryCode;
  }
  return DEFAULT_PHONE_COUNTRY;
}
