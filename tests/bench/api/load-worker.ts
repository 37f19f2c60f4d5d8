// The load generator: runs each autocannon load it is sent, one at a time, in a worker thread,
// so that it does not share the server's event loop (it still shares the machine's cores).
import { parentPort } from 'node:worker_threads';
import autocannon, { type AutocannonOptions } from 'autocannon';
import type { LoadOptions, LoadReply, LoadResult } from './load.ts';

/** A client address from a /8 of private space, one per request in turn. */
function formatClientAddress(index: number, addresses: number): string {
  const value = index % addresses;
  return `10.${(value >>> 16) & 255}.${(value >>> 8) & 255}.${value & 255}`;
}

/** Runs one load and sums it up. */
async function runLoadInWorker(options: LoadOptions): Promise<LoadResult> {
  let sent = 0;
  const settings: AutocannonOptions = {
    url: options.origin,
    connections: options.connections,
    duration: options.durationSeconds,
    requests: [
      {
        method: 'GET',
        // Every request is rebuilt: the next variant (user, search) and the next client address.
        setupRequest: (request) => {
          const variant = options.variants[sent % options.variants.length];
          const headers: Record<string, string> = {
            ...request.headers,
            ...variant.headers,
            accept: 'application/json',
          };
          if (options.clientAddresses > 0) {
            headers['x-forwarded-for'] = formatClientAddress(sent, options.clientAddresses);
          }
          sent += 1;
          return { ...request, path: variant.path, headers };
        },
      },
    ],
  };
  // Inside a worker thread autocannon hands back raw histograms; aggregating gives percentiles.
  const result = autocannon.aggregateResult([await autocannon(settings)], settings);
  return {
    durationSeconds: result.duration,
    responses: result.requests.total,
    requestsPerSecond: result.requests.total / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    latencySamples: result.latency.totalCount,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCounts: Object.fromEntries(
      Object.entries(result.statusCodeStats).map(([status, stat]) => [status, stat.count]),
    ),
  };
}

parentPort?.on('message', (options: LoadOptions) => {
  runLoadInWorker(options).then(
    (value) => parentPort?.postMessage({ ok: true, value } satisfies LoadReply),
    (error: unknown) =>
      parentPort?.postMessage({
        ok: false,
        error: error instanceof Error ? error.message : String(error),
      } satisfies LoadReply),
  );
});
