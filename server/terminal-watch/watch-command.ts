import { InvalidArgumentError, type Command } from 'commander';
import { createDesktopCatalog, type DesktopCatalog } from '#shared/desktop/desktop-catalog.ts';
import { clampCheckIntervalMinutes } from '#shared/desktop/local-search.ts';
import type { EndpointShape, RequestPacing } from '#shared/upstream/index.ts';
import { createSessionWarmUp } from '#shared/upstream/session-warm-up.ts';
import {
  DEFAULT_PARTS_PER_REQUEST,
  LOCAL_PACING,
  createLocalWatcher,
  createRequestBudget,
  type LocalAlert,
} from '#shared/watch/local/index.ts';
import {
  BACKING_OFF_EXIT_CODE,
  clearBackOff,
  describeBackOff,
  findBackOffEnd,
} from './back-off.ts';
import { openBudgetFile, resolveBudgetFile } from './request-budget-file.ts';
import {
  wireAddCommand,
  wireListCommand,
  wireProductsCommand,
  wireRemoveCommand,
} from './search-commands.ts';
import { openWatchFile } from './watch-file.ts';
import { formatAlertLine, formatCheckLine, type LineFormat } from './watch-lines.ts';

/** Adds `shelfwatch watch add|list|remove|run` to the command line. */
export function registerWatchCommands(program: Command): void {
  const catalog = createDesktopCatalog();
  const watch = program
    .command('watch')
    .description('watch stores from this terminal, without an account or a server');
  wireAddCommand(watch, catalog);
  wireListCommand(watch, catalog);
  wireRemoveCommand(watch);
  wireProductsCommand(watch, catalog);
  wireRunCommand(watch, catalog);
}

/** Where the watcher asks and how fast; from options, then the server's variables. */
type UpstreamOptions = { upstream?: string; shape?: string };

/** Parses a positive number of minutes for --interval. */
function parseMinutes(value: string): number {
  const minutes = Number(value);
  if (!Number.isFinite(minutes) || minutes <= 0) {
    throw new InvalidArgumentError('must be a number of minutes (1 or more)');
  }
  return minutes;
}

/** The upstream base URL: --upstream, else UPSTREAM_BASE_URL, else the embedded simulator's. */
function resolveUpstream(options: UpstreamOptions): { baseUrl: string; shape: EndpointShape } {
  const baseUrl =
    options.upstream ??
    process.env.UPSTREAM_BASE_URL ??
    `http://localhost:${process.env.SIMULATOR_PORT ?? '4010'}`;
  if (!/^https?:\/\//.test(baseUrl))
    throw new Error(`--upstream must be an http(s) URL: ${baseUrl}`);
  const shape = options.shape ?? process.env.UPSTREAM_SHAPE ?? 'pickup-message';
  if (shape !== 'fulfillment-messages' && shape !== 'pickup-message') {
    throw new Error('--shape must be fulfillment-messages or pickup-message');
  }
  return { baseUrl: baseUrl.replace(/\/+$/, ''), shape };
}

/**
 * This machine's pacing at Apple, the macOS app's: SHELFWATCH_UPSTREAM_RATE_PER_MINUTE,
 * SHELFWATCH_UPSTREAM_BURST and SHELFWATCH_UPSTREAM_MIN_GAP_SECONDS (the server's UPSTREAM_*
 * pace a server's addresses, not the budget this machine shares with the app), and the
 * server's UPSTREAM_PARTS_PER_REQUEST.
 */
function resolvePacing(): { pacing: RequestPacing; partsPerRequest: number } {
  const read = (name: string, fallback: number, isValid: (value: number) => boolean) => {
    const text = process.env[name];
    if (text === undefined || text.trim() === '') return fallback;
    const value = Number(text);
    if (!isValid(value)) throw new Error(`${name} is not valid: ${text}`);
    return value;
  };
  const isWhole = (min: number, max: number) => (value: number) =>
    Number.isInteger(value) && value >= min && value <= max;
  const isWithin = (min: number, max: number) => (value: number) =>
    Number.isFinite(value) && value >= min && value <= max;
  return {
    pacing: {
      ratePerMinute: read(
        'SHELFWATCH_UPSTREAM_RATE_PER_MINUTE',
        LOCAL_PACING.ratePerMinute,
        (value) => isWithin(0, 600)(value) && value !== 0,
      ),
      burst: read('SHELFWATCH_UPSTREAM_BURST', LOCAL_PACING.burst, isWhole(1, 60)),
      minGapMs:
        read('SHELFWATCH_UPSTREAM_MIN_GAP_SECONDS', LOCAL_PACING.minGapSeconds, isWithin(0, 60)) *
        1000,
    },
    partsPerRequest: read('UPSTREAM_PARTS_PER_REQUEST', DEFAULT_PARTS_PER_REQUEST, isWhole(2, 100)),
  };
}

/**
 * Shows one desktop notification for a search's released alerts where the OS offers one; the
 * printed lines are always there. node-notifier loads with the first alert, not with every
 * command (`--help` included).
 */
function notifyDesktop(alerts: readonly LocalAlert[]): void {
  const [first] = alerts;
  if (first === undefined) return;
  const models = new Set(alerts.map((alert) => alert.displayName)).size;
  const title =
    models > 1
      ? `${first.displayName} and ${models - 1} more are in stock`
      : `${first.displayName} is in stock`;
  const message =
    alerts.length === 1
      ? (first.pickupQuote ?? first.storeName)
      : [...new Set(alerts.map((alert) => alert.storeName))].join(', ');
  import('node-notifier').then(
    ({ default: notifier }) => notifier.notify({ title, message }, () => undefined),
    (error: unknown) => console.error(`Desktop notifications are unavailable: ${String(error)}`),
  );
}

/** The options of `watch run`. */
type RunOptions = UpstreamOptions & {
  once?: boolean;
  json?: boolean;
  interval: number;
  notify: boolean;
};

/** Adds `watch run`. */
function wireRunCommand(watch: Command, catalog: DesktopCatalog): void {
  watch
    .command('run')
    .description('check now and then every interval, printing a line per check and per alert')
    .option('--once', 'check once and exit (for scripts and cron)')
    .option('--json', 'print one JSON object per line')
    .option('--interval <minutes>', 'minutes between checks (at least 1)', parseMinutes, 5)
    .option('--no-notify', 'print only; no desktop notifications')
    .option(
      '--upstream <url>',
      'where to ask (default UPSTREAM_BASE_URL, else the local simulator)',
    )
    .option('--shape <shape>', 'endpoint shape asked first (default pickup-message)')
    .action(async (options: RunOptions) => runWatcher(catalog, options));
}

/** Checks the watch file's searches once, or every interval until Ctrl-C or SIGTERM. */
async function runWatcher(catalog: DesktopCatalog, options: RunOptions): Promise<void> {
  const format: LineFormat = options.json === true ? 'json' : 'text';
  const { file, warning } = await openWatchFile();
  if (warning !== null) console.error(warning);
  const searches = file.readSearches();
  if (searches.length === 0)
    throw new Error('No searches to watch. Add one with `shelfwatch watch add`.');
  const { baseUrl, shape } = resolveUpstream(options);
  const { pacing, partsPerRequest } = resolvePacing();
  // Failures at one upstream say nothing of another: a corrected --upstream asks at once.
  const previousUpstream = file.readUpstream();
  if (previousUpstream !== undefined && previousUpstream !== baseUrl) {
    file.writeState(clearBackOff(file.readState(), Date.now()));
  }
  file.writeUpstream(baseUrl);
  const watcher = createLocalWatcher({
    fetch: createSessionWarmUp({ fetch, now: Date.now }).fetch,
    now: Date.now,
    random: Math.random,
    setTimer: (fn, ms) => {
      const timer = setTimeout(fn, ms);
      return () => clearTimeout(timer);
    },
    // This machine is one address: one budget with the app and other terminal watchers.
    budget: createRequestBudget({
      store: openBudgetFile(resolveBudgetFile(process.env.SHELFWATCH_UPSTREAM_BUDGET_FILE)),
      baseUrl,
      pacing,
      now: Date.now,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    }),
    baseUrl,
    shape,
    partsPerRequest,
    catalog,
    listSearches: () => searches,
    getSettings: () => ({
      intervalMinutes: clampCheckIntervalMinutes(options.interval),
      isNotifying: true,
      defaultMaxDistanceMiles: null,
    }),
    loadState: () => file.readState(),
    saveState: (state) => file.writeState(state),
    // Every alert prints as raised; the desktop notification follows the search's cadence.
    onAlert: (alert) => console.log(formatAlertLine(alert, format)),
    notify: (_searchId, alerts) => {
      if (options.notify) notifyDesktop(alerts);
    },
    onCheck: (line) => console.log(formatCheckLine(line, format)),
  });
  if (options.once === true) {
    const report = await watcher.runOnce();
    // Every planned request failed.
    if (report.failures > 0 && report.answered === 0) process.exitCode = 2;
    // Nothing was asked, all of it held back by earlier failures: cron must see that too.
    if (report.failures === 0 && report.answered === 0 && report.skipped > 0) {
      const now = Date.now();
      const until = findBackOffEnd(file.readState(), now);
      if (until !== null) {
        const line = describeBackOff(until, now, format);
        if (format === 'json') console.log(line);
        else console.error(line);
        process.exitCode = BACKING_OFF_EXIT_CODE;
      }
    }
    return;
  }
  if (format === 'text') {
    console.log(
      `Watching ${searches.length} search(es) at ${baseUrl} every ${clampCheckIntervalMinutes(options.interval)} min. Ctrl-C stops.`,
    );
  }
  watcher.start();
  await new Promise<void>((resolve) => {
    const stop = () => {
      watcher.stop();
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
