import type { AttemptOutcome, ClaimedRow } from './outbox-claims.ts';
import type { ShelfwatchMetrics } from '#server/ops/metrics.ts';

/**
 * The delivery worker's `onSettled` hook for metrics: final outcomes only (a retry is counted
 * when it ends), and the delay of a sent alert from its outbox row, written in the same
 * transaction as the answer that saw the change.
 */
export function createAlertRecorder(
  metrics: ShelfwatchMetrics,
  now: () => number = Date.now,
): (row: ClaimedRow, outcome: AttemptOutcome) => void {
  return (row, outcome) => {
    if (outcome.status === 'pending') return;
    metrics.recordAlert({
      channel: row.channel,
      status: outcome.status,
      delaySeconds: (now() - row.created_at.getTime()) / 1000,
    });
  };
}
