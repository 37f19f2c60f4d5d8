import { getCountryStore } from '#shared/upstream/index.ts';
import type { SimStore } from './sim-catalog.ts';
import { hashSeeded } from './stock-schedule.ts';

// What an answer says about a store beyond the catalog's row: its links, time zone, opening
// hours and address record id, derived from the row so every answer repeats them exactly.

/** One line of a store's opening hours. */
export type StoreHoursLine = { days: string; spokenDays: string; timings: string };

/** Apple's retail page of a store: under the country's path, China's on apple.com.cn. */
export function buildRetailUrl(store: SimStore): string {
  if (store.countryCode === 'CN') return `http://www.apple.com.cn/retail/${store.store_slug}`;
  return `http://www.apple.com/${prefixPath(store.countryCode)}retail/${store.store_slug}`;
}

/** The store photo Apple links, over https (the http form is retailStore.storeImageUrl). */
export function buildStoreImageUrl(store: SimStore): string {
  return `https://rtlimages.apple.com/cmc/dieter/store/4_3/${store.store_id}.png?resize=828:*&output-format=jpg`;
}

/** The country's "delivery and pickup" page linked from pickupOptionsDetails. */
export function buildShippingPickupUrl(countryCode: string): string {
  if (countryCode === 'CN') return 'https://www.apple.com.cn/shop/shipping-pickup';
  return `https://www.apple.com/${prefixPath(countryCode)}shop/shipping-pickup`;
}

/**
 * The simulator's opening hours (the catalog has none): the US on a 12-hour clock, as the AE
 * capture is, elsewhere a 24-hour one.
 */
export function listStoreHours(store: SimStore): StoreHoursLine[] {
  if (store.countryCode === 'US') {
    return [
      { days: 'Mon-Sat', spokenDays: 'Monday-Saturday', timings: '10:00 AM-8:00 PM' },
      { days: 'Sun', spokenDays: 'Sunday', timings: '11:00 AM-6:00 PM' },
    ];
  }
  return [
    { days: 'Mon-Sat', spokenDays: 'Monday-Saturday', timings: '10:00-20:00' },
    { days: 'Sun', spokenDays: 'Sunday', timings: '12:00-18:00' },
  ];
}

const COUNTRY_TIMEZONES: Readonly<Record<string, string>> = {
  GB: 'Europe/London',
  DE: 'Europe/Berlin',
  FR: 'Europe/Paris',
  IT: 'Europe/Rome',
  ES: 'Europe/Madrid',
  NL: 'Europe/Amsterdam',
  BE: 'Europe/Brussels',
  AT: 'Europe/Vienna',
  CH: 'Europe/Zurich',
  SE: 'Europe/Stockholm',
  TR: 'Europe/Istanbul',
  JP: 'Asia/Tokyo',
  CN: 'Asia/Shanghai',
  HK: 'Asia/Hong_Kong',
  MO: 'Asia/Macau',
  TW: 'Asia/Taipei',
  SG: 'Asia/Singapore',
  KR: 'Asia/Seoul',
  TH: 'Asia/Bangkok',
  AE: 'Asia/Dubai',
  MX: 'America/Mexico_City',
  BR: 'America/Sao_Paulo',
};

const AUSTRALIAN_STATE_TIMEZONES: Readonly<Record<string, string>> = {
  NSW: 'Australia/Sydney',
  ACT: 'Australia/Sydney',
  VIC: 'Australia/Melbourne',
  TAS: 'Australia/Hobart',
  QLD: 'Australia/Brisbane',
  SA: 'Australia/Adelaide',
  NT: 'Australia/Darwin',
  WA: 'Australia/Perth',
};

/** The store's IANA time zone: by country, Australia by state, the US and Canada by longitude. */
export function findTimezone(store: SimStore): string {
  if (store.countryCode === 'US' || store.countryCode === 'CA') {
    const isUs = store.countryCode === 'US';
    if (store.longitude < -115) return isUs ? 'America/Los_Angeles' : 'America/Vancouver';
    if (store.longitude < -101) return isUs ? 'America/Denver' : 'America/Edmonton';
    if (store.longitude < -85) return isUs ? 'America/Chicago' : 'America/Winnipeg';
    return isUs ? 'America/New_York' : 'America/Toronto';
  }
  if (store.countryCode === 'AU') {
    return AUSTRALIAN_STATE_TIMEZONES[store.state_code ?? ''] ?? 'Australia/Sydney';
  }
  return COUNTRY_TIMEZONES[store.countryCode] ?? 'UTC';
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The store's local date as retailStore.dateStamp writes it ("21-Sep-2026"). */
export function formatDateStamp(nowMs: number, timezone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: timezone,
    year: 'numeric',
    month: 'numeric',
    day: '2-digit',
  }).formatToParts(new Date(nowMs));
  const read = (type: string): string => parts.find((part) => part.type === type)?.value ?? '';
  return `${read('day')}-${MONTHS[Number(read('month')) - 1] ?? ''}-${read('year')}`;
}

/**
 * A stable id for the store's address record, shaped as Apple's `uuid` (a version-4 UUID):
 * the catalog has none, and the same store must always carry the same one.
 */
export function buildAddressUuid(store: SimStore): string {
  const hex = [0, 1, 2, 3]
    .map((round) => hashSeeded(round, `address|${store.store_id}`).toString(16).padStart(8, '0'))
    .join('');
  const variant = ((Number.parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return [
    hex.slice(0, 8),
    hex.slice(8, 12),
    `4${hex.slice(13, 16)}`,
    `${variant}${hex.slice(17, 20)}`,
    hex.slice(20, 32),
  ].join('-');
}

function prefixPath(countryCode: string): string {
  const path = getCountryStore(countryCode).path;
  return path === '' ? '' : `${path}/`;
}
