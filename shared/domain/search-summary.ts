/** The two fields of a search its summary line depends on. */
export type SearchSummaryInput = {
  show_results_only_for_preferred_models: boolean;
  stores_with_inventory: number | null | undefined;
};

/** "store" for exactly one, "stores" otherwise (0 included). */
export function pluralizeStores(count: number): string {
  return count === 1 ? 'store' : 'stores';
}

/**
 * A search card's inventory preview (spec: My Searches): a missing count reads as 0, and the
 * wording depends on whether only preferred models are shown.
 */
export function summarizeSearch(search: SearchSummaryInput): string {
  const count = search.stores_with_inventory ?? 0;
  return search.show_results_only_for_preferred_models
    ? `Preferred models found at ${count} ${pluralizeStores(count)}`
    : `Inventory available at ${count} nearby ${pluralizeStores(count)}`;
}
