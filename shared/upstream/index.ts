// Public surface of the upstream retail client; import from '#shared/upstream/index.ts'.

export * from './answer-checks.ts';
export * from './backoff.ts';
export * from './client.ts';
export * from './countries.ts';
export * from './endpoint-memory.ts';
export * from './failures.ts';
export * from './parse-response.ts';
export * from './parse-stores.ts';
export * from './rate-limiter.ts';
export * from './status.ts';
export * from './types.ts';
export * from './urls.ts';
