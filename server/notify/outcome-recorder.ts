import type { Executor } from '#server/db/database.ts';
import {
  recordAttemptOutcomes,
  type AttemptOutcome,
  type ClaimedRow,
  type SettledAttempt,
} from './outbox-claims.ts';

/** Records attempt outcomes, many to a statement (see createOutcomeRecorder). */
export type OutcomeRecorder = {
  /** Resolves true once written, false when the lease was lost to a newer claim. */
  record: (row: ClaimedRow, outcome: AttemptOutcome) => Promise<boolean>;
};

type Pending = {
  attempt: SettledAttempt;
  resolve: (isRecorded: boolean) => void;
  reject: (error: unknown) => void;
};

/**
 * Group commit for outbox outcomes: the first outcome is written at once, and every outcome
 * that settles while a write is under way joins the next one. A lone alert is recorded as
 * soon as it is sent; a burst of hundreds costs a handful of statements instead of one
 * commit per email, which is what the database spent its time on during a restock wave.
 */
export function createOutcomeRecorder(db: Executor): OutcomeRecorder {
  let queue: Pending[] = [];
  let writing: Promise<void> | undefined;

  const writeQueued = async (): Promise<void> => {
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      try {
        const recorded = await recordAttemptOutcomes(
          db,
          batch.map((pending) => pending.attempt),
        );
        for (const pending of batch) pending.resolve(recorded.has(String(pending.attempt.row.id)));
      } catch (error) {
        for (const pending of batch) pending.reject(error);
      }
    }
  };

  return {
    record: (row, outcome) =>
      new Promise<boolean>((resolve, reject) => {
        queue.push({ attempt: { row, outcome }, resolve, reject });
        writing ??= writeQueued().finally(() => {
          writing = undefined;
        });
      }),
  };
}
