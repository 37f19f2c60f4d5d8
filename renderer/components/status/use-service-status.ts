import { useQuery } from '@tanstack/react-query';
import type { WatchStatus } from '#shared/api/watch.ts';
import { useApi } from '#renderer/api/api-client.ts';

/** How often the status page reads the server's status again. */
export const STATUS_REFRESH_MS = 60_000;

/**
 * GET /v2/status from the server, on the website and in the app alike (the app's own watch
 * loop is not what this page reports). Asked without a token: the server gives the operator's
 * view only with its metrics token, which no browser holds, so people see the public view and
 * the operator's sections show only when an answer carries them.
 */
export function useServiceStatus() {
  const { publicApi } = useApi();
  return useQuery({
    queryKey: ['serviceStatus'] as const,
    queryFn: async (): Promise<WatchStatus> => (await publicApi.get<WatchStatus>('/status')).data,
    refetchInterval: STATUS_REFRESH_MS,
  });
}
