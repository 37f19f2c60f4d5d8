import type { WarmUpEvent } from '#shared/upstream/session-warm-up.ts';
import {
  probeBuyPage,
  probeFulfillmentMessages,
  probePickupMessage,
  type DoctorAddress,
  type ProbeDeps,
  type ProbeReport,
  type ProbeVerdict,
} from './doctor-probes.ts';
import type { DoctorTarget } from './doctor-target.ts';
import type { EgressRowView, EgressState } from './egress-state.ts';

// One doctor run: every configured address, one after another, each asked the three
// requests unless the shared database says it is cooling down (asking then would keep
// Apple's block tripped) or its pickup-message request was already refused.

/** What one address came to. */
export type AddressVerdict = ProbeVerdict | 'cooling_down';

/** One address's part of the report. */
export type AddressReport = {
  label: string;
  kind: DoctorAddress['kind'];
  /** Its row in `egress_addresses`, null when the database has none (or was not read). */
  row: EgressRowView | null;
  warmUps: WarmUpEvent[];
  probes: ProbeReport[];
  verdict: AddressVerdict;
};

/** The whole run. */
export type DoctorReport = {
  baseUrl: string;
  target: DoctorTarget;
  database: { isReachable: true } | { isReachable: false; reason: string };
  addresses: AddressReport[];
  /** True when every address answered as captured: the exit status is 0. */
  isHealthy: boolean;
};

/** What a run needs from its host. */
export type DoctorRunDeps = ProbeDeps & {
  addresses: readonly DoctorAddress[];
  egress: EgressState;
  /** The bag-page visits an address made so far (the warm-up reports them). */
  readWarmUps: (label: string) => readonly WarmUpEvent[];
  /** Ask addresses in cool-down too. */
  isForced: boolean;
};

// Worst first: the address's verdict is the worst of its requests'.
const SEVERITY: readonly AddressVerdict[] = [
  'cooling_down',
  'blocked',
  'drift',
  'failed',
  'inconclusive',
  'ok',
];

/** Runs the doctor's requests through every address and says how each went. */
export async function runDoctor(deps: DoctorRunDeps, target: DoctorTarget): Promise<DoctorReport> {
  const addresses: AddressReport[] = [];
  for (const address of deps.addresses) {
    addresses.push(await examineAddress(deps, address, target));
  }
  return {
    baseUrl: deps.baseUrl,
    target,
    database: deps.egress.isReachable
      ? { isReachable: true }
      : { isReachable: false, reason: deps.egress.reason },
    addresses,
    isHealthy: addresses.length > 0 && addresses.every((address) => address.verdict === 'ok'),
  };
}

async function examineAddress(
  deps: DoctorRunDeps,
  address: DoctorAddress,
  target: DoctorTarget,
): Promise<AddressReport> {
  const row = deps.egress.isReachable ? (deps.egress.rows.get(address.label) ?? null) : null;
  const base = { label: address.label, kind: address.kind, row };
  const isCooling = (row?.coolDownUntil?.getTime() ?? 0) > deps.now();
  if (isCooling && !deps.isForced) {
    return { ...base, warmUps: [], probes: [], verdict: 'cooling_down' };
  }
  const probes: ProbeReport[] = [await probePickupMessage(deps, address.fetch, target)];
  const first = probes[0];
  if (first !== undefined && first.verdict !== 'blocked' && first.verdict !== 'failed') {
    probes.push(await probeFulfillmentMessages(deps, address.fetch, target));
    const page = await probeBuyPage(deps, address.fetch, target);
    if (page !== undefined) probes.push(page);
  }
  return {
    ...base,
    warmUps: [...deps.readWarmUps(address.label)],
    probes,
    verdict: worstOf(probes.map((probe) => probe.verdict)),
  };
}

function worstOf(verdicts: readonly AddressVerdict[]): AddressVerdict {
  const ranked = verdicts.map((verdict) => SEVERITY.indexOf(verdict));
  return SEVERITY[Math.min(...ranked, SEVERITY.length - 1)] ?? 'ok';
}
