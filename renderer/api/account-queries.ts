import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Account,
  AccountUpdate,
  QuietHoursSettings,
  TimeZoneUpdate,
} from '#shared/api/account.ts';
import { useApi } from './api-client.ts';
import { queryKeys } from './query-keys.ts';

/** GET /v2/account, cached under the key myAccount. */
export function useMyAccount(isEnabled = true) {
  const { privateApi } = useApi();
  return useQuery({
    queryKey: queryKeys.myAccount,
    queryFn: async () => (await privateApi.get<Account>('/account')).data,
    enabled: isEnabled,
  });
}

/** PATCH /v2/account; on success the cached account is replaced by the answer. */
export function useSaveAccount() {
  const { privateApi } = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (update: AccountUpdate) =>
      (await privateApi.patch<Account>('/account', update)).data,
    onSuccess: (account) => {
      queryClient.setQueryData(queryKeys.myAccount, account);
    },
  });
}

/** DELETE /v2/account: everything of the account is removed; the caller then logs out. */
export function useDeleteAccount() {
  const { privateApi } = useApi();
  return useMutation({
    mutationFn: async () => {
      await privateApi.delete('/account');
    },
  });
}

/**
 * PATCH /v2/account/quiet-hours with the whole setting (PATCH, as for the account, is what the
 * Mac app's bridge carries); the answer, the whole account, replaces the cached one.
 */
export function useSaveQuietHours() {
  const { privateApi } = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (hours: QuietHoursSettings) =>
      (await privateApi.patch<Account>('/account/quiet-hours', hours)).data,
    onSuccess: (account) => {
      queryClient.setQueryData(queryKeys.myAccount, account);
    },
  });
}

/** PATCH /v2/account/time-zone: the zone alert times are written in; the answer replaces the cache. */
export function useSaveTimeZone() {
  const { privateApi } = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (update: TimeZoneUpdate) =>
      (await privateApi.patch<Account>('/account/time-zone', update)).data,
    onSuccess: (account) => {
      queryClient.setQueryData(queryKeys.myAccount, account);
    },
  });
}
