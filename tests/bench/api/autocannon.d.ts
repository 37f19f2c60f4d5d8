// The part of autocannon's programmatic API the API benchmark uses (the package ships no types).
declare module 'autocannon' {
  /** One request as autocannon builds it; `setupRequest` may rewrite it before every send. */
  export type AutocannonRequest = {
    method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
    path?: string;
    headers?: Record<string, string>;
    setupRequest?: (request: AutocannonRequest) => AutocannonRequest;
  };

  /** Options of a run. */
  export type AutocannonOptions = {
    url: string;
    connections?: number;
    duration?: number;
    requests?: AutocannonRequest[];
  };

  /** Percentiles of a histogram (latency in ms, requests per one-second sample). */
  export type AutocannonHistogram = {
    average: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p99: number;
    p99_9: number;
  };

  /** What a run reports. Latency covers 2xx answers only. */
  export type AutocannonResult = {
    duration: number;
    errors: number;
    timeouts: number;
    resets: number;
    non2xx: number;
    '2xx': number;
    statusCodeStats: Record<string, { count: number }>;
    latency: AutocannonHistogram & { totalCount: number };
    requests: AutocannonHistogram & { sent: number };
  };

  /**
   * Runs the load; settles when the duration is over. On the main thread with the result, in
   * a worker thread with raw per-run figures for `aggregateResult`.
   */
  type Autocannon = ((options: AutocannonOptions) => Promise<unknown>) & {
    aggregateResult: (results: unknown[], options: AutocannonOptions) => AutocannonResult;
  };

  const autocannon: Autocannon;
  export default autocannon;
}
