import { QueryClient } from '@tanstack/react-query';
import { shouldRetryQuery } from './api-errors.ts';

/** The app's query cache: TanStack defaults (5 min cache, 1 s to 30 s backoff) plus our retry rule. */
export function createQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: shouldRetryQuery } } });
}
