// Runs one autocannon load in a worker thread, so the load generator does not share the
// server's event loop (it still shares the machine's cores).
import { parentPort, workerData } from 'node:worker_threads';
import autocannon, { type AutocannonOptions } from 'autocannon';
import type { LoadOptions, LoadResult } from './load.ts';

const options = workerData as LoadOptions;

/** A client address from a /8 of private space, one per request in turn. */
function formatClientAddress(index: number): string {
  const value = index % options.clientAddresses;
  return `10.${(value >>> 16) & 255}.${(value >>> 8) & 255}.${value & 255}`;
}

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
        if (options.clientAddresses > 0) headers['x-forwarded-for'] = formatClientAddress(sent);
        sent += 1;
        return { ...request, path: variant.path, headers };
      },
    },
  ],
};
// Inside a worker thread autocannon hands back raw histograms; aggregating gives percentiles.
const result = autocannon.aggregateResult([await autocannon(settings)], settings);

const summary: LoadResult = {
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
parentPort?.postMessage(summary);
