import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DesktopSettingsPatch } from '#shared/desktop/local-search.ts';
import { useHost } from '../host/host-context.tsx';
import { requireDesktop } from '../host/desktop-bridge.ts';
import { unwrapHostResult } from './host-errors.ts';
import { queryKeys } from './query-keys.ts';

/** The macOS app's settings, read from its main process. */
export function useDesktopSettings() {
  const host = useHost();
  return useQuery({
    queryKey: queryKeys.desktopSettings,
    queryFn: () => unwrapHostResult(requireDesktop(host).settings.get()),
    enabled: host.desktop !== undefined,
  });
}

/** Saves one settings change; the answer replaces the cached settings and the watch status is reread. */
export function useSaveDesktopSettings() {
  const host = useHost();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: DesktopSettingsPatch) =>
      unwrapHostResult(requireDesktop(host).settings.update(patch)),
    onSuccess: async (settings) => {
      queryClient.setQueryData(queryKeys.desktopSettings, settings);
      await queryClient.invalidateQueries({ queryKey: queryKeys.desktopWatchStatus });
    },
  });
}
