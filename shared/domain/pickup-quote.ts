// Apple's `pickupSearchQuote` says when a model can be collected: "Available Today", or a
// later day such as "Available Wed 23 Sep" (reference/apple/README.md). Both mean "in stock"
// to the engine, but not to someone deciding whether to leave now, so alerts tell them apart
// while quoting Apple verbatim. Quotes come in the store's language; the words below are
// "today" in the languages of Apple's storefronts, and anything else with a digit is a date.

const TODAY_WORDS = [
  'today',
  'aujourd',
  'heute',
  'hoy',
  'oggi',
  'vandaag',
  'idag',
  'i dag',
  'tänään',
  'dzisiaj',
  'hoje',
  'bugün',
  'сегодня',
  '今日',
  '今天',
  '오늘',
  'วันนี้',
];

/** When a quote says pickup can happen: today, a later day, or unknown (no or unclear quote). */
export type PickupDay = 'today' | 'later' | 'unknown';

/** Reads Apple's quote: "Available Today" is today, "Available Wed 23 Sep" a later day. */
export function classifyPickupQuote(quote: string | null): PickupDay {
  if (quote === null || quote.trim() === '') return 'unknown';
  const lower = quote.toLowerCase();
  if (TODAY_WORDS.some((word) => lower.includes(word))) return 'today';
  return /\d/.test(quote) ? 'later' : 'unknown';
}

/**
 * The pickup line every channel shows: Apple's quote, marked "(not today)" when it names a
 * later day, so "Available Wed 23 Sep" never reads like "Available Today".
 */
export function describePickupQuote(quote: string | null): string {
  if (quote === null || quote.trim() === '') return 'Pickup time not stated';
  return classifyPickupQuote(quote) === 'later' ? `${quote} (not today)` : quote;
}
