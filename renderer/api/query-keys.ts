/** TanStack Query keys; `myAccount` is the name the spec gives the account cache. */
export const queryKeys = {
  myAccount: ['myAccount'] as const,
  mySearches: ['mySearches'] as const,
  search: (searchId: string) => ['search', searchId] as const,
  inventory: (searchId: string) => ['inventory', searchId] as const,
  searchHistory: (searchId: string) => ['searchHistory', searchId] as const,
  watchStatus: ['watchStatus'] as const,
  desktopWatchStatus: ['desktopWatchStatus'] as const,
  desktopSettings: ['desktopSettings'] as const,
  products: ['products'] as const,
  stores: ['stores'] as const,
  countries: ['countries'] as const,
  exampleInventory: ['exampleInventory'] as const,
};
