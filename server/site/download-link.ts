import { z } from 'zod';
import { loadOnFirstUse } from '#server/base/load-on-first-use.ts';

// The download page links MACOS_DOWNLOAD_URL; without one, the newest .dmg the macOS app's
// update feed names (latest-mac.yml, written by electron-builder beside the files), so a
// release published to the feed is downloadable from the site without another setting.

const manifestSchema = z.object({
  version: z.string(),
  files: z.array(z.object({ url: z.string() })).default([]),
});

/** The YAML parser loads with the first feed read, not at start (most installs have no feed). */
const loadYamlParse = loadOnFirstUse(async () => (await import('yaml')).parse);

/** A successful answer is kept this long; a failed one is retried sooner. */
const CACHE_MS = 10 * 60_000;
const RETRY_MS = 60_000;

/**
 * Reads the .dmg of the feed's newest release: the universal one the build makes
 * (electron-builder.yml: `arch: [universal]`), else Apple silicon (feeds of older per-arch
 * builds), else any.
 */
export async function pickDownloadUrl(
  manifestText: string,
  feedUrl: string,
): Promise<string | null> {
  const parse = await loadYamlParse();
  let document: unknown;
  try {
    document = parse(manifestText);
  } catch {
    return null;
  }
  const manifest = manifestSchema.safeParse(document);
  if (!manifest.success) return null;
  const dmgs = manifest.data.files.map((file) => file.url).filter((url) => url.endsWith('.dmg'));
  const chosen =
    dmgs.find((url) => url.includes('universal')) ??
    dmgs.find((url) => url.includes('arm64')) ??
    dmgs[0];
  if (chosen === undefined) return null;
  const base = feedUrl.endsWith('/') ? feedUrl : `${feedUrl}/`;
  return new URL(chosen, base).href;
}

/** Resolves the download link from the feed, cached; null when there is none to be had. */
export function createDownloadLinkResolver(deps: {
  feedUrl: string;
  fetch: typeof fetch;
  now: () => number;
  log: (message: string) => void;
}): () => Promise<string | null> {
  let cached: { url: string | null; until: number } | null = null;
  let pending: Promise<string | null> | null = null;
  const load = async (): Promise<string | null> => {
    const base = deps.feedUrl.endsWith('/') ? deps.feedUrl : `${deps.feedUrl}/`;
    try {
      const response = await deps.fetch(new URL('latest-mac.yml', base), {
        signal: AbortSignal.timeout(5_000),
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const url = await pickDownloadUrl(await response.text(), base);
      cached = { url, until: deps.now() + CACHE_MS };
      return url;
    } catch (error) {
      deps.log(`The macOS update feed could not be read: ${String(error)}`);
      cached = { url: cached?.url ?? null, until: deps.now() + RETRY_MS };
      return cached.url;
    }
  };
  return async () => {
    if (cached !== null && cached.until > deps.now()) return cached.url;
    pending ??= load().finally(() => {
      pending = null;
    });
    return await pending;
  };
}
