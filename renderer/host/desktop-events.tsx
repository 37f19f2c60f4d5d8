import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { DesktopHost } from '#shared/bridge.ts';
import { queryKeys } from '../api/query-keys.ts';

/**
 * Follows the app's main process: a clicked notification opens its search, and a finished
 * check refreshes what is on screen at once instead of at the next 60-second poll.
 */
export function DesktopEvents({
  desktop,
  navigate,
}: {
  desktop: DesktopHost;
  navigate: (path: string) => void;
}) {
  const queryClient = useQueryClient();
  useEffect(() => desktop.onNavigate(navigate), [desktop, navigate]);
  // Another account (or none) sees other searches: drop everything cached for the last one.
  useEffect(
    () => desktop.onAuthChanged(() => void queryClient.invalidateQueries()),
    [desktop, queryClient],
  );
  useEffect(
    () =>
      desktop.onWatchChanged(() => {
        for (const key of [
          queryKeys.mySearches,
          ['inventory'],
          ['searchHistory'],
          queryKeys.watchStatus,
          queryKeys.desktopWatchStatus,
        ]) {
          void queryClient.invalidateQueries({ queryKey: key });
        }
      }),
    [desktop, queryClient],
  );
  return null;
}
