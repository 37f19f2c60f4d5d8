import path from 'node:path';
import type { AppConfig } from '#server/config/app-config.ts';
import type { RunningStack } from './stack.ts';

/** What the start banner reports. */
export type StartBannerInput = {
  config: Pick<
    AppConfig,
    'publicUrl' | 'dataDir' | 'idp' | 'upstream' | 'simulator' | 'watch' | 'notify'
  >;
  stack: Pick<RunningStack, 'siteUrl' | 'issuer' | 'demo' | 'database' | 'metricsTokenFile'>;
  startedInMs: number;
};

/**
 * Said instead of the demo password on later starts (only its hash is kept): where it was and
 * how to choose a new one (a configured password is applied to the existing demo account).
 */
export const DEMO_PASSWORD_RESET_HINT =
  '(printed on the first start; to reset it, start once with SHELFWATCH_DEMO_PASSWORD=<new password>)';

/**
 * The block `npm start` prints once everything is up: where to go, how to sign in, where the
 * metrics token is, where alerts end up and how to stop. Plain lines, written in one piece, so
 * no log line can land in the middle of it.
 */
export function formatStartBanner({ config, stack, startedInMs }: StartBannerInput): string {
  const rows: [string, string][] = [
    ['Website', stack.siteUrl],
    ['Health', `${stack.siteUrl}/healthz`],
    ['Metrics', describeMetrics(stack)],
    [
      'Sign-in',
      config.idp.kind === 'embedded'
        ? `built-in login provider at ${stack.issuer}`
        : `Auth0 at ${stack.issuer}`,
    ],
  ];
  if (stack.demo !== undefined) {
    const password = stack.demo.password ?? DEMO_PASSWORD_RESET_HINT;
    rows.push([
      'Demo login',
      `${stack.demo.email} / ${password}${stack.demo.isCreated ? ' (created now)' : ''}`,
    ]);
  }
  rows.push(['Stock', describeStock(config)]);
  rows.push([
    'Email',
    config.notify.smtpUrl === undefined
      ? `written to ${path.join(config.dataDir, 'outbox', 'email')}`
      : `sent over SMTP (${new URL(config.notify.smtpUrl).host})`,
  ]);
  rows.push([
    'Texts',
    config.notify.twilio === undefined
      ? `written to ${path.join(config.dataDir, 'outbox', 'text')}`
      : 'sent through Twilio',
  ]);
  rows.push(['Database', describeDatabase(stack.database)]);
  rows.push(['Stop', 'Ctrl-C']);
  const width = Math.max(...rows.map(([label]) => label.length)) + 2;
  const lines = [
    `Shelfwatch is ready (started in ${(startedInMs / 1000).toFixed(1)} s)`,
    ...rows.map(([label, value]) => `  ${`${label}:`.padEnd(width)}${value}`),
  ];
  return `\n${lines.join('\n')}\n\n`;
}

// Where the token is, never the token itself: the banner may end up in a shared log.
function describeMetrics(stack: StartBannerInput['stack']): string {
  const token =
    stack.metricsTokenFile === undefined ? 'METRICS_TOKEN' : `in ${stack.metricsTokenFile}`;
  return `${stack.siteUrl}/metrics, bearer token ${token}`;
}

function describeStock(config: StartBannerInput['config']): string {
  if (!config.watch.isEnabled) return 'not watched (WATCH_ENABLED=false)';
  const source = config.simulator.isEnabled
    ? `upstream simulator at ${config.upstream.baseUrl}`
    : config.upstream.baseUrl;
  return `${source}, checked every ${config.watch.pollIntervalSeconds} s`;
}

function describeDatabase(database: StartBannerInput['stack']['database']): string {
  if (database.kind === 'url') return 'PostgreSQL at DATABASE_URL';
  return `embedded PostgreSQL on port ${database.port}, data in ${database.directory}`;
}
