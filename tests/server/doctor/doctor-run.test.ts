import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { WarmUpEvent } from '#shared/upstream/session-warm-up.ts';
import { renderDoctorText } from '#server/doctor/doctor-report.ts';
import { runDoctor, type DoctorRunDeps } from '#server/doctor/doctor-run.ts';
import { resolveDoctorTarget } from '#server/doctor/doctor-target.ts';
import type { EgressState } from '#server/doctor/egress-state.ts';
import { createEgressAddresses } from '#server/watch/egress-agents.ts';
import type { EgressAddress } from '#server/watch/egress.ts';
import {
  findForeignPart,
  startSimulatorHarness,
  type SimulatorHarness,
} from '#tests/server/simulator/support.ts';

// The doctor's run in process against the simulator, through the watcher's own egress
// addresses: what a healthy address reports, and how Apple's failures (faults injected with
// the simulator's control API) and a cooling-down address change the verdict.

const LABEL = 'direct doctor-test';
const NO_DATABASE: EgressState = { isReachable: false, reason: 'not asked in this test' };

describe('shelfwatch doctor against the simulator', () => {
  let harness: SimulatorHarness;
  const opened: EgressAddress[] = [];
  let warmUps: WarmUpEvent[] = [];

  beforeAll(async () => {
    harness = await startSimulatorHarness();
  });
  afterEach(async () => {
    harness.simulator.clearFault();
    harness.simulator.liftBlocks();
    await Promise.all(opened.splice(0).map(async (address) => await address.close()));
  });
  afterAll(async () => harness.close());

  /** Fresh addresses (so a fresh session) and the run's deps. */
  function prepare(overrides: Partial<DoctorRunDeps> = {}): DoctorRunDeps {
    warmUps = [];
    const addresses = createEgressAddresses({
      proxies: [],
      isDirect: true,
      allowH2: false,
      directLabel: LABEL,
      onWarmUp: (_label, event) => warmUps.push(event),
    });
    opened.push(...addresses);
    return {
      addresses,
      egress: NO_DATABASE,
      readWarmUps: () => warmUps,
      baseUrl: harness.simulator.url,
      now: Date.now,
      timeoutMs: 10_000,
      isStrict: false,
      isForced: false,
      ...overrides,
    };
  }

  it('reports an address whose answers are all as captured as healthy, with its session', async () => {
    const target = resolveDoctorTarget({ country: 'GB' });
    const report = await runDoctor(prepare(), target);
    const [address] = report.addresses;
    expect(address?.warmUps).toEqual([
      expect.objectContaining({
        url: `${harness.simulator.url}/uk/shop/bag`,
        outcome: 'warm',
        status: 200,
        cookieNames: ['dssid2'],
      }),
    ]);
    expect(address?.probes.map((probe) => [probe.name, probe.verdict, probe.httpStatus])).toEqual([
      ['pickup-message', 'ok', 200],
      ['fulfillment-messages', 'ok', 541],
      ['buy page', 'ok', 200],
    ]);
    expect(address?.probes[0]?.drift).toEqual([]);
    expect(address?.probes[0]?.summary).toMatch(
      new RegExp(`^\\d+ stores; ${target.partNumber.replace('/', '\\/')} `),
    );
    expect(report.isHealthy).toBe(true);
    expect(renderDoctorText(report, Date.now())).toContain(
      'Result: every address answered as captured (exit 0).',
    );
  });

  it('sees a 541 as the address’s block and asks it nothing more', async () => {
    const before = harness.simulator.getRequestCount();
    await harness.control('POST', '/_sim/fault', { kind: '541', seconds: 60 });
    const report = await runDoctor(prepare(), resolveDoctorTarget({ country: 'GB' }));
    expect(report.addresses[0]).toMatchObject({
      verdict: 'blocked',
      probes: [{ name: 'pickup-message', verdict: 'blocked', httpStatus: 541 }],
    });
    expect(harness.simulator.getRequestCount() - before).toBe(1);
    expect(report.isHealthy).toBe(false);
    expect(renderDoctorText(report, Date.now())).toContain(
      'Result: 1 of 1 addresses not as captured (exit 1).',
    );
  });

  it('sees an HTML page where JSON was expected as a block', async () => {
    await harness.control('POST', '/_sim/fault', { kind: 'html', seconds: 60 });
    const report = await runDoctor(prepare(), resolveDoctorTarget({ country: 'GB' }));
    expect(report.addresses[0]?.verdict).toBe('blocked');
    expect(report.addresses[0]?.probes[0]?.summary).toContain('HTML page where JSON was expected');
  });

  it('sees an answer that is not JSON as drift', async () => {
    await harness.control('POST', '/_sim/fault', { kind: 'malformed', seconds: 60 });
    const report = await runDoctor(prepare(), resolveDoctorTarget({ country: 'GB' }));
    expect(report.addresses[0]?.verdict).toBe('drift');
    expect(report.addresses[0]?.probes[0]?.drift).toEqual(['the answer is not JSON']);
  });

  it('calls the empty answer for a part Apple does not sell there inconclusive, not healthy', async () => {
    const part = findForeignPart('US', 'GB');
    const report = await runDoctor(
      prepare(),
      resolveDoctorTarget({ country: 'GB', part, buyPage: '/shop/buy-iphone/iphone-18-pro' }),
    );
    expect(report.addresses[0]?.probes[0]).toMatchObject({
      verdict: 'inconclusive',
      httpStatus: 200,
      summary: `empty answer as captured: Apple sells none of the parts asked here (${part})`,
    });
    expect(report.isHealthy).toBe(false);
  });

  it('does not ask an address the database says is cooling down, unless forced', async () => {
    const coolDownUntil = new Date(Date.now() + 5 * 60_000);
    const egress: EgressState = {
      isReachable: true,
      rows: new Map([
        [
          LABEL,
          {
            coolDownUntil,
            consecutiveBlocks: 2,
            lastBlockAt: new Date(Date.now() - 60_000),
            lastSuccessAt: null,
            lastFailureKind: 'blocked',
          },
        ],
      ]),
    };
    const target = resolveDoctorTarget({ country: 'GB' });
    const before = harness.simulator.getRequestCount();
    const report = await runDoctor(prepare({ egress }), target);
    expect(report.addresses[0]).toMatchObject({ verdict: 'cooling_down', probes: [] });
    expect(harness.simulator.getRequestCount()).toBe(before);
    const text = renderDoctorText(report, Date.now());
    expect(text).toContain(
      `cooling down until ${coolDownUntil.toISOString().slice(0, 16).replace('T', ' ')} UTC; 2 blocks in a row`,
    );
    expect(text).toContain('COOLING DOWN: not asked (--force asks anyway)');

    const forced = await runDoctor(prepare({ egress, isForced: true }), target);
    expect(forced.addresses[0]?.verdict).toBe('ok');
    expect(harness.simulator.getRequestCount()).toBeGreaterThan(before);
  });
});
