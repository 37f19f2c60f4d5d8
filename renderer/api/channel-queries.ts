import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ChannelCreate,
  ChannelCreated,
  ChannelList,
  ChannelTestResult,
  SearchChannels,
} from '#shared/api/channels.ts';
import { useApi } from './api-client.ts';

/** Cache keys of the channel queries. */
export const channelKeys = {
  all: ['alertChannels'] as const,
  search: (searchId: string) => ['alertChannels', 'search', searchId] as const,
};

/** GET /v2/account/channels. */
export function useAlertChannels(isEnabled = true) {
  const { privateApi } = useApi();
  return useQuery({
    queryKey: channelKeys.all,
    queryFn: async () => (await privateApi.get<ChannelList>('/account/channels')).data.channels,
    enabled: isEnabled,
  });
}

/** POST /v2/account/channels; the answer carries a webhook's secret this once. */
export function useCreateAlertChannel() {
  const { privateApi } = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (channel: ChannelCreate) =>
      (await privateApi.post<ChannelCreated>('/account/channels', channel)).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: channelKeys.all }),
  });
}

/** DELETE /v2/account/channels/{id}. */
export function useDeleteAlertChannel() {
  const { privateApi } = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (channelId: string) => {
      await privateApi.delete(`/account/channels/${encodeURIComponent(channelId)}`);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: channelKeys.all }),
  });
}

/** POST /v2/account/channels/{id}/test; a delivered test may resume a paused channel. */
export function useTestAlertChannel() {
  const { privateApi } = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (channelId: string) =>
      (
        await privateApi.post<ChannelTestResult>(
          `/account/channels/${encodeURIComponent(channelId)}/test`,
        )
      ).data,
    onSettled: () => queryClient.invalidateQueries({ queryKey: channelKeys.all }),
  });
}

/** GET /v2/searches/{id}/channels: which channels the search uses. */
export function useSearchChannels(searchId: string, isEnabled = true) {
  const { privateApi } = useApi();
  return useQuery({
    queryKey: channelKeys.search(searchId),
    queryFn: async () =>
      (await privateApi.get<SearchChannels>(`/searches/${encodeURIComponent(searchId)}/channels`))
        .data.channels,
    enabled: isEnabled,
  });
}

/** PATCH /v2/searches/{id}/channels; the answer replaces the cached choice. */
export function useSaveSearchChannels(searchId: string) {
  const { privateApi } = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (channelIds: string[]) =>
      (
        await privateApi.patch<SearchChannels>(
          `/searches/${encodeURIComponent(searchId)}/channels`,
          { channel_ids: channelIds },
        )
      ).data.channels,
    onSuccess: (channels) => queryClient.setQueryData(channelKeys.search(searchId), channels),
  });
}
