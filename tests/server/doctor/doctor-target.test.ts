import { describe, expect, it } from 'vitest';
import {
  COUNTRY_SEEDS,
  isModelSold,
  listCurrentProductTypes,
  PRODUCT_MODEL_SEEDS,
  PRODUCT_TYPE_SEEDS,
  STORE_SEEDS,
} from '#shared/catalog/index.ts';
import { chooseSeedLocation } from '#shared/watch/engine/plan-inputs.ts';
import { DoctorOptionError, resolveDoctorTarget } from '#server/doctor/doctor-target.ts';

function firstStoreOf(countryCode: string) {
  const locale = COUNTRY_SEEDS.find((country) => country.country_code === countryCode)?.locale_code;
  return STORE_SEEDS.find((store) => store.country_locale === locale);
}

describe('what the doctor asks when the operator names nothing', () => {
  it('asks the US about its first current model, at its first store’s postal code, with its buy page', () => {
    const target = resolveDoctorTarget({});
    const store = firstStoreOf('US')!;
    const firstType = listCurrentProductTypes(PRODUCT_TYPE_SEEDS, PRODUCT_MODEL_SEEDS).find(
      (type) =>
        PRODUCT_MODEL_SEEDS.some(
          (model) =>
            model.product_id === type.product_id &&
            model.country_code === 'US' &&
            isModelSold(model),
        ),
    );
    const model = PRODUCT_MODEL_SEEDS.find(
      (candidate) =>
        candidate.product_id === firstType?.product_id &&
        candidate.country_code === 'US' &&
        isModelSold(candidate),
    );
    expect(target).toEqual({
      countryCode: 'US',
      partNumber: model?.part_number,
      displayName: model?.display_name,
      where: { location: chooseSeedLocation(store.postal_code, store.city) },
      buyPagePath: firstType?.buy_page ?? null,
    });
  });

  it('takes the operator’s country (UK spelled as Apple spells it), part, store and buy page', () => {
    const part = PRODUCT_MODEL_SEEDS.find((model) => model.country_code === 'GB')!;
    expect(
      resolveDoctorTarget({
        country: 'uk',
        part: ` ${part.part_number.toLowerCase()} `,
        store: 'r092',
        buyPage: '/shop/buy-mac/macbook-air',
      }),
    ).toMatchObject({
      countryCode: 'GB',
      partNumber: part.part_number,
      displayName: part.display_name,
      where: { storeNumber: 'R092' },
      buyPagePath: '/shop/buy-mac/macbook-air',
    });
  });

  it('asks a well-formed part the catalog lacks, without a name or a buy page', () => {
    // Made up on purpose (no Apple part starts with ZZZ): a launch newer than the catalog.
    expect(resolveDoctorTarget({ country: 'JP', part: 'ZZZ99J/A', location: 'Tokyo' })).toEqual({
      countryCode: 'JP',
      partNumber: 'ZZZ99J/A',
      displayName: null,
      where: { location: 'Tokyo' },
      buyPagePath: null,
    });
  });

  it('refuses bad options with a message that says what would do', () => {
    const cases: [Parameters<typeof resolveDoctorTarget>[0], RegExp][] = [
      [{ country: 'ZZ' }, /--country ZZ is not a country/],
      [{ part: 'iphone' }, /--part iphone is not an Apple part number/],
      [{ store: '95' }, /--store 95 is not an Apple store number/],
      [{ location: '  ' }, /--location needs a postal code or a city/],
    ];
    for (const [options, message] of cases) {
      expect(() => resolveDoctorTarget(options)).toThrow(DoctorOptionError);
      expect(() => resolveDoctorTarget(options)).toThrow(message);
    }
  });

  it('says so when the catalog has no model or store for the country', () => {
    const empty = { countries: COUNTRY_SEEDS, stores: [], types: PRODUCT_TYPE_SEEDS, models: [] };
    expect(() => resolveDoctorTarget({ country: 'FR' }, empty)).toThrow(
      'The catalog sells no model in FR; name a part with --part',
    );
    const part = PRODUCT_MODEL_SEEDS.find((model) => model.country_code === 'FR')!.part_number;
    expect(() => resolveDoctorTarget({ country: 'FR', part }, empty)).toThrow(
      'The catalog has no store in FR; name one with --store or --location',
    );
  });
});
