import {
  BROWSER_CURRENT_SINCE,
  BROWSER_USER_AGENT,
  describeBrowserAge,
} from '#shared/upstream/browser-identity.ts';
import type { WarmUpEvent } from '#shared/upstream/session-warm-up.ts';
import type { ProbeReport } from './doctor-probes.ts';
import type { AddressReport, AddressVerdict, DoctorReport } from './doctor-run.ts';
import type { EgressRowView } from './egress-state.ts';

// The doctor's report for a person (text) or a script (one JSON object). Cookie names are
// shown, never their values; proxies by host and port only (their labels).

const VERDICT_WORDS: Readonly<Record<AddressVerdict, string>> = {
  ok: 'as captured',
  drift: 'DRIFT',
  blocked: 'BLOCKED',
  failed: 'FAILED',
  inconclusive: 'INCONCLUSIVE',
  cooling_down: 'COOLING DOWN: not asked (--force asks anyway)',
};
const MAX_LINES_PER_LIST = 8;

/** The report as lines of text. */
export function renderDoctorText(report: DoctorReport, nowMs: number): string {
  const { target } = report;
  const where =
    'location' in target.where
      ? `location ${target.where.location}`
      : `store ${target.where.storeNumber}`;
  const part = `${target.partNumber}${target.displayName === null ? '' : ` (${target.displayName})`}`;
  const lines = [
    `Shelfwatch doctor, ${formatTime(new Date(nowMs))}`,
    `Upstream   ${report.baseUrl}`,
    `Asking     ${target.countryCode}, ${part} at ${where}`,
    `Browser    ${describeBrowser(nowMs)}`,
    `Database   ${report.database.isReachable ? 'egress_addresses read' : `not reachable (${report.database.reason}): block state unknown`}`,
  ];
  if (report.addresses.length === 0) lines.push('', 'No egress address is configured.');
  for (const address of report.addresses) lines.push('', ...renderAddress(address, report, nowMs));
  const problems = report.addresses.filter((address) => address.verdict !== 'ok').length;
  lines.push(
    '',
    report.isHealthy
      ? 'Result: every address answered as captured (exit 0).'
      : `Result: ${problems} of ${report.addresses.length} addresses not as captured (exit 1).`,
  );
  return `${lines.join('\n')}\n`;
}

/** The report as one JSON document, with the browser identity it was made with. */
export function renderDoctorJson(report: DoctorReport, nowMs: number): string {
  return `${JSON.stringify({
    ...report,
    browser: {
      userAgent: BROWSER_USER_AGENT,
      currentSince: BROWSER_CURRENT_SINCE,
      ...describeBrowserAge(nowMs),
    },
  })}\n`;
}

function describeBrowser(nowMs: number): string {
  const version = /Version\/([\d.]+)/.exec(BROWSER_USER_AGENT)?.[1] ?? '?';
  const { ageDays, isStale } = describeBrowserAge(nowMs);
  const age = `Safari ${version} User-Agent, current since ${BROWSER_CURRENT_SINCE} (${ageDays} days)`;
  return isStale ? `${age}: older than a year, update shared/upstream/browser-identity.ts` : age;
}

function renderAddress(address: AddressReport, report: DoctorReport, nowMs: number): string[] {
  const lines = [`${address.label} (${address.kind})`];
  lines.push(`  block state           ${describeRow(address.row, report, nowMs)}`);
  for (const warmUp of address.warmUps) {
    lines.push(`  warm-up               ${describeWarmUp(warmUp)}`);
  }
  for (const probe of address.probes) lines.push(...renderProbe(probe));
  lines.push(`  => ${VERDICT_WORDS[address.verdict]}`);
  return lines;
}

function renderProbe(probe: ProbeReport): string[] {
  const status = probe.httpStatus === null ? 'no answer' : `HTTP ${probe.httpStatus}`;
  const lines = [
    `  ${probe.name.padEnd(20)}  ${VERDICT_WORDS[probe.verdict].padEnd(12)} ${status} in ${probe.latencyMs} ms: ${probe.summary}`,
    `      ${probe.url}`,
  ];
  lines.push(...capList(probe.drift, 'drift'), ...capList(probe.notes, 'differs from the capture'));
  return lines;
}

function capList(items: readonly string[], label: string): string[] {
  const shown = items.slice(0, MAX_LINES_PER_LIST).map((item) => `      ${label}: ${item}`);
  const hidden = items.length - shown.length;
  return hidden > 0 ? [...shown, `      ${label}: and ${hidden} more (--json lists all)`] : shown;
}

function describeRow(row: EgressRowView | null, report: DoctorReport, nowMs: number): string {
  if (!report.database.isReachable) return 'unknown (database not reachable)';
  if (row === null) return 'not in egress_addresses (no watcher has used this address)';
  const parts = [
    row.coolDownUntil !== null && row.coolDownUntil.getTime() > nowMs
      ? `cooling down until ${formatTime(row.coolDownUntil)}`
      : 'not cooling down',
    `${row.consecutiveBlocks} blocks in a row`,
  ];
  if (row.lastBlockAt !== null) parts.push(`last block ${formatTime(row.lastBlockAt)}`);
  if (row.lastSuccessAt !== null) parts.push(`last answer ${formatTime(row.lastSuccessAt)}`);
  if (row.lastFailureKind !== null) parts.push(`last failure ${row.lastFailureKind}`);
  return parts.join('; ');
}

function describeWarmUp(event: WarmUpEvent): string {
  const status = event.status === null ? 'no answer' : `HTTP ${event.status}`;
  const cookies =
    event.cookieNames.length === 0 ? 'no cookie' : `cookies: ${event.cookieNames.join(', ')}`;
  const detail = event.detail === null ? '' : ` (${event.detail})`;
  return `bag page ${status} in ${event.durationMs} ms, ${event.outcome}, ${cookies}${detail}`;
}

function formatTime(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
