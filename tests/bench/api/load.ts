// Runs autocannon loads in one long-lived worker thread and waits for each summary.
import { Worker } from 'node:worker_threads';

/** One request shape a load cycles through (path and headers, e.g. a user's token). */
export type RequestVariant = { path: string; headers: Record<string, string> };

/** What to load and how hard. */
export type LoadOptions = {
  origin: string;
  connections: number;
  durationSeconds: number;
  /** Requests take these in turn. */
  variants: readonly RequestVariant[];
  /** Distinct X-Forwarded-For addresses requests rotate through; 0 sends none. */
  clientAddresses: number;
};

/** A run's figures; latency percentiles come from every 2xx answer of the run. */
export type LoadResult = {
  durationSeconds: number;
  responses: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  latencySamples: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCounts: Record<string, number>;
};

/** What the worker answers to one load: its summary, or why it failed. */
export type LoadReply = { ok: true; value: LoadResult } | { ok: false; error: string };

/** Runs loads one after another; the same worker serves all of them until `close`. */
export type LoadRunner = {
  runLoad: (options: LoadOptions) => Promise<LoadResult>;
  close: () => Promise<void>;
};

/**
 * Starts the load worker. One worker for every load, so that from its first load on the load
 * generator's own code is compiled and its heap settled: a new worker per run timed
 * autocannon's start-up (interpreted code, a growing young generation) in the first moments of
 * every run, and that landed in the tail of whatever was measured.
 */
export function createLoadRunner(): LoadRunner {
  const worker = new Worker(new URL('./load-worker.ts', import.meta.url));
  // An idle worker must not keep the process alive; a running load holds a reference.
  worker.unref();
  let queue: Promise<unknown> = Promise.resolve();
  let exitError: Error | undefined;
  const pending = new Set<(error: Error) => void>();
  const failAll = (error: Error): void => {
    exitError = error;
    for (const reject of pending) reject(error);
    pending.clear();
  };
  worker.on('error', failAll);
  worker.on('exit', (code) => failAll(new Error(`load worker exited with ${code}`)));

  const sendLoad = (options: LoadOptions): Promise<LoadResult> =>
    new Promise<LoadResult>((resolve, reject) => {
      if (exitError !== undefined) {
        reject(exitError);
        return;
      }
      pending.add(reject);
      worker.ref();
      worker.once('message', (reply: LoadReply) => {
        pending.delete(reject);
        worker.unref();
        if (reply.ok) resolve(reply.value);
        else reject(new Error(`load failed: ${reply.error}`));
      });
      worker.postMessage(options);
    });

  return {
    runLoad: (options) => {
      // One load at a time: two at once would each see half the client.
      const run = queue.then(() => sendLoad(options));
      queue = run.catch(() => undefined);
      return run;
    },
    close: async () => {
      await queue;
      await worker.terminate();
    },
  };
}
