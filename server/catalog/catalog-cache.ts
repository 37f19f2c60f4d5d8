import { createHash } from 'node:crypto';

/**
 * Bodies longer than this (in UTF-16 code units) are kept UTF-8 encoded: see
 * sendSerializedJson for why small ones stay strings.
 */
const ENCODED_BODY_MIN_LENGTH = 4096;

/** A reply body held in memory, with its strong validator. */
export type CachedBody = {
  /** The serialised JSON answer; a long one already encoded, so no write encodes it again. */
  body: string | Buffer;
  /** Strong ETag (quoted): a hash of the body, so equal content has one tag in every process. */
  etag: string;
};

/** A body kept in memory and reloaded when it may be out of date (see createCachedBody). */
export type CachedBodySource = CachedValueSource<CachedBody>;

// Bumped by every catalog write of this process; caches compare it to the one they loaded.
let catalogVersion = 0;

/**
 * Tells the catalog caches of this process that products, stores or countries changed
 * (seedCatalog, a store directory import): their next read waits for fresh content.
 */
export function markCatalogChanged(): void {
  catalogVersion += 1;
}

/** A strong ETag for a body: the first 128 bits of its SHA-256, base64url. */
export function computeEtag(body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
}

/**
 * Whether an `If-None-Match` header names `etag`. The comparison is the weak one RFC 9110
 * prescribes for this header: `W/"x"` matches `"x"`; `*` matches any current body.
 */
export function isEtagMatch(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined || ifNoneMatch === '') {
    return false;
  }
  if (ifNoneMatch.trim() === '*') {
    return true;
  }
  return ifNoneMatch.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag);
}

/** A rejection handler for a refresh whose failure its own caller reports. */
function ignoreError(): undefined {
  return undefined;
}

/** A value kept in memory and reloaded when it may be out of date (see createCachedValue). */
export type CachedValueSource<T> = {
  /** The current value: loaded on first use, after a catalog change, or refreshed when old. */
  read: () => Promise<T>;
};

/**
 * A value built from the catalog by `load` and kept in memory. It is reloaded, with readers
 * waiting for the new value, after markCatalogChanged() (changes made in this process, or
 * announced by another through catalog-notify.ts). After `maxAgeMs` it is refreshed in the
 * background while readers keep the previous value: that bounds how long changes nobody
 * announced stay unseen, without making a reader wait. Concurrent reads share one load; a
 * failed background refresh keeps the previous value and is reported to `onRefreshError`.
 */
export function createCachedValue<T>(options: {
  load: () => Promise<T>;
  maxAgeMs: number;
  onRefreshError?: (error: unknown) => void;
  now?: () => number;
}): CachedValueSource<T> {
  const now = options.now ?? ((): number => Date.now());
  let current: { value: T; loadedAt: number; version: number } | undefined;
  let loading: Promise<T> | undefined;

  const reload = (): Promise<T> => {
    loading ??= (async () => {
      try {
        const version = catalogVersion;
        const loadedAt = now();
        const value = await options.load();
        current = { value, loadedAt, version };
        return value;
      } finally {
        loading = undefined;
      }
    })();
    return loading;
  };

  return {
    read: async () => {
      // No closures made here: this runs on every catalog request, and each function created
      // per call costs measurably (tsx names every one).
      if (current === undefined || current.version !== catalogVersion) {
        // A refresh already under way may have started before the change: let it finish first.
        if (loading !== undefined) await loading.catch(ignoreError);
        if (current === undefined || current.version !== catalogVersion) return await reload();
      }
      if (now() - current.loadedAt >= options.maxAgeMs && loading === undefined) {
        reload().catch((error: unknown) => options.onRefreshError?.(error));
      }
      return current.value;
    },
  };
}

/**
 * A JSON body built by `load` and `serialize` and served from memory, with its ETag; reloaded
 * as createCachedValue says.
 */
export function createCachedBody<T>(options: {
  load: () => Promise<T>;
  serialize: (value: T) => string;
  maxAgeMs: number;
  onRefreshError?: (error: unknown) => void;
  now?: () => number;
}): CachedBodySource {
  const { load, serialize, ...timing } = options;
  return createCachedValue({
    ...timing,
    load: async (): Promise<CachedBody> => {
      const body = serialize(await load());
      return {
        body: body.length > ENCODED_BODY_MIN_LENGTH ? Buffer.from(body) : body,
        etag: computeEtag(body),
      };
    },
  });
}
