import { parseStoreDirectory, type DirectoryStore } from '#shared/catalog/index.ts';
import { buildCountryPageHeaders, isSupportedCountry } from '#shared/upstream/index.ts';
import type { Db } from '#server/db/database.ts';
import { listCountries, upsertStores } from '#server/db/repositories/catalog-repository.ts';
import {
  closeStores,
  listKnownStoreIds,
  listLocaleStores,
  recordDirectorySync,
  reopenStores,
} from '#server/db/repositories/store-directory-repository.ts';
import { getTodayUtc } from './apply-catalog-file.ts';
import { markCatalogChanged } from './catalog-cache.ts';
import { notifyCatalogChanged } from './catalog-notify.ts';
import {
  createDirectoryPacer,
  type DirectoryPacer,
  type PacingRefusal,
} from './directory-pacing.ts';

// The store directory keeps itself current: `rsp-web/store-list?locale=xx_YY` is read for each
// country's locale, one request after another within the address budget. A country whose
// locale answers 404 (Apple's Thailand) is skipped and reported: it speaks for nothing, so its
// stores (seeded, or learned from answers) stay as they are. For a locale that answered, stores
// it lists and the catalog lacks are added, closed ones it lists again are reopened, and
// directory stores it no longer lists are closed; stores learned from pickup answers are never
// closed by absence, since the directory is known to miss some (reference README).

/** What one country's read came to. */
export type CountryDirectoryOutcome = {
  countryCode: string;
  locale: string;
  url: string;
  outcome: 'read' | 'not_listed' | 'failed';
  httpStatus: number | null;
  /** Stores the locale's entry lists. */
  listed: number;
  added: string[];
  closed: string[];
  reopened: string[];
  /** Why nothing was applied (a failed or skipped read). */
  problem: string | null;
};

/** What a whole sync did, country by country. */
export type DirectorySyncResult = {
  countries: CountryDirectoryOutcome[];
  /** Entries of the answers that could not be read (a malformed store), each with why. */
  skipped: string[];
};

/** Options of a sync. */
export type DirectorySyncOptions = {
  baseUrl: string;
  fetchDirectory?: typeof fetch;
  /** Paces the requests; the default only pauses `requestIntervalMs` between two. */
  pacer?: DirectoryPacer;
  requestIntervalMs?: number;
  now?: () => number;
  /** Only these countries (two-letter codes); every country of the catalog when unset. */
  countryCodes?: readonly string[];
};

/** The directory's address for one locale. */
export function buildStoreListUrl(baseUrl: string, locale: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/rsp-web/store-list?locale=${encodeURIComponent(locale)}`;
}

type Fetched =
  | { kind: 'read'; stores: DirectoryStore[]; skipped: string[]; status: number }
  | { kind: 'not_listed' | 'failed'; status: number | null; problem: string };

async function fetchLocale(
  url: string,
  locale: string,
  countryCode: string,
  fetchDirectory: typeof fetch,
): Promise<Fetched> {
  const headers = {
    ...buildCountryPageHeaders(isSupportedCountry(countryCode) ? countryCode : 'US'),
    Accept: 'application/json',
  };
  let response: Response;
  try {
    response = await fetchDirectory(url, { headers, redirect: 'manual' });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { kind: 'failed', status: null, problem: `request failed (${reason})` };
  }
  if (response.status === 404) {
    await response.body?.cancel();
    return { kind: 'not_listed', status: 404, problem: 'HTTP 404: no directory for this locale' };
  }
  if (!response.ok) {
    await response.body?.cancel();
    return { kind: 'failed', status: response.status, problem: `HTTP ${response.status}` };
  }
  let parsed: ReturnType<typeof parseStoreDirectory>;
  try {
    parsed = parseStoreDirectory((await response.json()) as unknown);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { kind: 'failed', status: response.status, problem: `unreadable answer (${reason})` };
  }
  // Apple's answer for one locale lists others too; each country is spoken for by its own.
  const stores = parsed.stores.filter((store) => store.country_locale === locale);
  const skipped = parsed.skipped
    .filter((entry) => entry.reason.startsWith(`${locale}:`))
    .map((entry) => `${entry.id ?? '(no id)'} ${entry.reason}`);
  if (stores.length === 0) {
    // An empty or missing entry is more likely Apple's fault than every store closing at once.
    return {
      kind: 'failed',
      status: response.status,
      problem: `the answer lists no store for ${locale}; nothing was closed`,
    };
  }
  return { kind: 'read', stores, skipped, status: response.status };
}

/** Applies one locale's listing in one transaction; answers what it added, closed, reopened. */
async function applyListing(
  db: Db,
  locale: string,
  stores: readonly DirectoryStore[],
  today: string,
): Promise<{ added: string[]; closed: string[]; reopened: string[] }> {
  return await db.transaction().execute(async (trx) => {
    const known = await listKnownStoreIds(trx);
    const current = await listLocaleStores(trx, locale);
    const listedIds = new Set(stores.map((store) => store.store_id));
    const added = stores
      .filter((store) => !known.has(store.store_id))
      .map((store) => store.store_id)
      .sort();
    // Directory stores carry no coordinates: upsertStores keeps the ones already known.
    // In store order, as answers fill coordinates in, so the two never wait on each other.
    await upsertStores(
      trx,
      [...stores].sort((a, b) => a.store_id.localeCompare(b.store_id)),
    );
    const reopened = await reopenStores(
      trx,
      current.filter((store) => listedIds.has(store.store_id)).map((store) => store.store_id),
    );
    const closed = await closeStores(
      trx,
      current
        .filter((store) => !listedIds.has(store.store_id) && !store.is_learned)
        .map((store) => store.store_id),
      today,
    );
    if (added.length + closed.length + reopened.length > 0) await notifyCatalogChanged(trx);
    return { added, closed, reopened };
  });
}

/**
 * Reads every country's directory, paced, and applies each answer on its own: a country that
 * fails or answers 404 changes nothing and the others still apply. Each country's outcome is
 * recorded for the status page.
 */
export async function syncStoreDirectory(
  db: Db,
  options: DirectorySyncOptions,
): Promise<DirectorySyncResult> {
  const now = options.now ?? Date.now;
  const fetchDirectory = options.fetchDirectory ?? fetch;
  const pacer =
    options.pacer ??
    createDirectoryPacer({
      db,
      intervalMs: options.requestIntervalMs ?? 0,
      maxWaitMs: 0,
      now,
    });
  const countries = (await listCountries(db))
    .filter(
      (country) =>
        options.countryCodes === undefined || options.countryCodes.includes(country.country_code),
    )
    .sort((a, b) => a.country_code.localeCompare(b.country_code));
  const outcomes: CountryDirectoryOutcome[] = [];
  const skipped: string[] = [];
  // Once the budget says no, the rest of the sync waits for the next run rather than queueing.
  let refusal: PacingRefusal | undefined;
  for (const country of countries) {
    const locale = country.locale_code;
    const url = buildStoreListUrl(options.baseUrl, locale);
    const base = { countryCode: country.country_code, locale, url, listed: 0 };
    const none = { added: [], closed: [], reopened: [] };
    let outcome: CountryDirectoryOutcome;
    if (refusal === undefined) {
      const turn = await pacer.waitTurn();
      if (!turn.isAllowed) refusal = turn.reason;
    }
    if (refusal !== undefined) {
      const why =
        refusal === 'cooling_down'
          ? 'the address is cooling down after a block'
          : 'no request left in the address budget';
      outcome = {
        ...base,
        ...none,
        outcome: 'failed',
        httpStatus: null,
        problem: `not asked: ${why}`,
      };
    } else {
      const fetched = await fetchLocale(url, locale, country.country_code, fetchDirectory);
      if (fetched.kind === 'read') {
        skipped.push(...fetched.skipped);
        const changes = await applyListing(
          db,
          locale,
          fetched.stores,
          getTodayUtc(new Date(now())),
        );
        outcome = {
          ...base,
          ...changes,
          outcome: 'read',
          httpStatus: fetched.status,
          listed: fetched.stores.length,
          problem: null,
        };
      } else {
        outcome = {
          ...base,
          ...none,
          outcome: fetched.kind,
          httpStatus: fetched.status,
          problem: fetched.problem,
        };
      }
    }
    outcomes.push(outcome);
    await recordDirectorySync(db, {
      country_code: outcome.countryCode,
      locale_code: locale,
      synced_at: new Date(now()),
      outcome: outcome.outcome,
      http_status: outcome.httpStatus,
      listed: outcome.listed,
      added: outcome.added,
      closed: outcome.closed,
      reopened: outcome.reopened,
      error: outcome.problem,
    });
  }
  if (
    outcomes.some((entry) => entry.added.length + entry.closed.length + entry.reopened.length > 0)
  )
    markCatalogChanged();
  return { countries: outcomes, skipped };
}

/** The lines `catalog sync-stores` prints: per country what was added, closed and skipped. */
export function describeDirectorySync(result: DirectorySyncResult): string[] {
  const lines: string[] = [];
  for (const entry of result.countries) {
    const where = `${entry.countryCode} (${entry.locale})`;
    if (entry.outcome !== 'read') {
      const verb = entry.outcome === 'not_listed' ? 'skipped' : 'not read';
      lines.push(`${where}: ${verb}, ${entry.problem ?? 'no answer'}`);
      continue;
    }
    const parts = [`${entry.listed} listed`];
    if (entry.added.length > 0) parts.push(`added ${entry.added.join(', ')}`);
    if (entry.closed.length > 0) parts.push(`closed ${entry.closed.join(', ')}`);
    if (entry.reopened.length > 0) parts.push(`reopened ${entry.reopened.join(', ')}`);
    lines.push(`${where}: ${parts.join('; ')}`);
  }
  for (const entry of result.skipped) lines.push(`Skipped ${entry}`);
  return lines;
}
