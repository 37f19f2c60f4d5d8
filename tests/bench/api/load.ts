// Starts an autocannon load in a worker thread and waits for its summary.
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

/** Runs one load to completion in a worker thread. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const worker = new Worker(new URL('./load-worker.ts', import.meta.url), {
    workerData: options,
  });
  try {
    return await new Promise<LoadResult>((resolve, reject) => {
      worker.once('message', (message: LoadResult) => resolve(message));
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`load worker exited with ${code}`)));
    });
  } finally {
    await worker.terminate();
  }
}
