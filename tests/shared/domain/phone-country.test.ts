import { describe, expect, it } from 'vitest';
import { DEFAULT_PHONE_COUNTRY, choosePhoneCountry } from '#shared/domain/phone-country.ts';

const stores = [
  { store_id: 'R409', country_locale: 'en_HK' },
  { store_id: 'R092', country_locale: 'en_GB' },
  { store_id: 'R999', country_locale: 'nonsense' },
];

describe('choosePhoneCountry', () => {
  it('takes the country of the store the first search watches', () => {
    expect(choosePhoneCountry([{ store_id: 'R409' }, { store_id: 'R092' }], stores)).toBe('HK');
  });

  it('skips searches whose store is unknown or has no country', () => {
    expect(
      choosePhoneCountry([{ store_id: 'R1' }, { store_id: 'R999' }, { store_id: 'R092' }], stores),
    ).toBe('GB');
  });

  it('falls back to the US without searches', () => {
    expect(choosePhoneCountry([], stores)).toBe(DEFAULT_PHONE_COUNTRY);
    expect(DEFAULT_PHONE_COUNTRY).toBe('US');
  });
});
