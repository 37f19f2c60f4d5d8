import type { PollOutcome } from './poll-request.ts';
import type { Logger } from '#server/logging/logger.ts';

/** What this process saw of one watch cycle. */
type CycleTally = {
  /** Groups the cycle queued, when this process planned it. */
  dueCount: number | undefined;
  outcomeCount: number;
  polled: number;
  changes: number;
  restocks: number;
  alertsEnqueued: number;
  failuresByKind: Map<string, number>;
};

/** Receives a watcher's cycle events and logs one line per cycle that changed or failed. */
export type CycleLog = {
  recordPlanned: (cycleStartedAt: number, dueCount: number) => void;
  recordPolled: (cycleStartedAt: number, outcome: PollOutcome) => void;
  /** Logs what is still open (on stop). */
  flush: () => void;
};

/** After this long no poll of a cycle can still report: pg-boss expires poll jobs after 5 minutes. */
const CYCLE_REPORT_DEADLINE_MS = 6 * 60_000;

/**
 * A cycle's polls run as separate jobs, so its result is known only once as many outcomes
 * arrived as the cycle queued. A cycle another worker planned is closed when a newer cycle
 * shows up; one of ours whose job never reported (a crash), at the deadline.
 */
export function createCycleLog(logger: Logger, now: () => number = Date.now): CycleLog {
  const tallies = new Map<number, CycleTally>();
  const tallyOf = (cycleStartedAt: number): CycleTally => {
    let tally = tallies.get(cycleStartedAt);
    if (tally === undefined) {
      tally = {
        dueCount: undefined,
        outcomeCount: 0,
        polled: 0,
        changes: 0,
        restocks: 0,
        alertsEnqueued: 0,
        failuresByKind: new Map(),
      };
      tallies.set(cycleStartedAt, tally);
    }
    return tally;
  };
  const close = (cycleStartedAt: number): void => {
    const tally = tallies.get(cycleStartedAt);
    tallies.delete(cycleStartedAt);
    if (tally !== undefined) writeCycleLine(logger, cycleStartedAt, tally);
  };
  const closeFinished = (latest: number): void => {
    for (const [cycleStartedAt, tally] of [...tallies]) {
      const isComplete = tally.dueCount !== undefined && tally.outcomeCount >= tally.dueCount;
      const isPlannedElsewhere = tally.dueCount === undefined && cycleStartedAt < latest;
      const isPastDeadline = now() - cycleStartedAt > CYCLE_REPORT_DEADLINE_MS;
      if (isComplete || isPlannedElsewhere || isPastDeadline) close(cycleStartedAt);
    }
  };
  return {
    recordPlanned: (cycleStartedAt, dueCount) => {
      tallyOf(cycleStartedAt).dueCount = dueCount;
      closeFinished(cycleStartedAt);
    },
    recordPolled: (cycleStartedAt, outcome) => {
      const tally = tallyOf(cycleStartedAt);
      tally.outcomeCount += 1;
      if (outcome.kind === 'polled') {
        tally.polled += 1;
        tally.changes += outcome.report.changes;
        tally.restocks += outcome.report.restocks;
        tally.alertsEnqueued += outcome.report.alertsEnqueued;
      } else if (outcome.kind === 'failed') {
        tally.failuresByKind.set(
          outcome.failureKind,
          (tally.failuresByKind.get(outcome.failureKind) ?? 0) + 1,
        );
      }
      closeFinished(cycleStartedAt);
    },
    flush: () => {
      for (const cycleStartedAt of [...tallies.keys()]) close(cycleStartedAt);
    },
  };
}

/** Writes the cycle's line, unless it changed nothing and nothing failed. */
function writeCycleLine(logger: Logger, cycleStartedAt: number, tally: CycleTally): void {
  const failed = [...tally.failuresByKind.values()].reduce((sum, count) => sum + count, 0);
  if (tally.changes === 0 && tally.alertsEnqueued === 0 && failed === 0) return;
  const parts: string[] = [];
  if (tally.changes > 0 || tally.alertsEnqueued > 0) {
    parts.push(
      `${count(tally.changes, 'availability change')} (${count(tally.restocks, 'restock')})`,
      `${count(tally.alertsEnqueued, 'alert')} queued`,
    );
  }
  if (failed > 0) {
    const kinds = [...tally.failuresByKind].map(([kind, times]) => `${kind} ×${times}`);
    parts.push(`${failed} failed (${kinds.join(', ')})`);
  }
  const fields = {
    cycleStartedAt: new Date(cycleStartedAt).toISOString(),
    polled: tally.polled,
    failed,
    changes: tally.changes,
    restocks: tally.restocks,
    alertsEnqueued: tally.alertsEnqueued,
  };
  const line = `${count(tally.polled + failed, 'request')} this cycle: ${parts.join(', ')}`;
  if (failed > 0) logger.warn(fields, line);
  else logger.info(fields, line);
}

function count(value: number, noun: string): string {
  return `${value} ${noun}${value === 1 ? '' : 's'}`;
}
