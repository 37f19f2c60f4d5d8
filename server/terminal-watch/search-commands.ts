import { randomUUID } from 'node:crypto';
import { InvalidArgumentError, type Command } from 'commander';
import { newSearchSchema } from '#shared/api/searches.ts';
import type { DesktopCatalog } from '#shared/desktop/desktop-catalog.ts';
import {
  checkCatalogChoice,
  createLocalSearch,
  toSearchView,
} from '#shared/desktop/search-view.ts';
import { openWatchFile } from './watch-file.ts';

// `shelfwatch watch add|list|remove|products`: the searches of the watch file, and the
// catalog they are chosen from.

/** Searches the terminal watcher keeps at most: they share one address's budget at Apple. */
export const MAX_TERMINAL_SEARCHES = 50;

/** The options of `watch add`. */
type AddOptions = {
  product: string;
  store: string;
  nearby: boolean;
  maxDistance?: number;
  prefer?: string[];
};

/** Parses --max-distance in miles (0.5 to 500). */
function parseMiles(value: string): number {
  const miles = Number(value);
  if (!Number.isFinite(miles) || miles < 0.5 || miles > 500) {
    throw new InvalidArgumentError('must be a distance from 0.5 to 500 miles');
  }
  return miles;
}

/** Adds `watch add`. */
export function wireAddCommand(watch: Command, catalog: DesktopCatalog): void {
  watch
    .command('add')
    .description('add a search (every model of the product is preferred unless --prefer is given)')
    .requiredOption('--product <id>', 'product type, e.g. iphone16pro (see `watch products`)')
    .requiredOption('--store <id>', "Apple's store number, e.g. R095")
    .option('--no-nearby', 'only the store itself, not the ~11 stores nearest to it')
    .option('--max-distance <miles>', 'nearby stores only within this distance', parseMiles)
    .option('--prefer <parts...>', 'part numbers that should alert (default: all models)')
    .action(async (options: AddOptions) => addSearch(catalog, options));
}

/** Adds a search to the watch file, checked against the catalog. */
async function addSearch(catalog: DesktopCatalog, options: AddOptions): Promise<void> {
  const { file, warning } = await openWatchFile();
  if (warning !== null) console.error(warning);
  const searches = file.readSearches();
  if (searches.length >= MAX_TERMINAL_SEARCHES) {
    throw new Error(`At most ${MAX_TERMINAL_SEARCHES} searches: remove one first.`);
  }
  const mismatch = checkCatalogChoice(catalog, options.product, options.store);
  if (mismatch !== null) throw new Error(mismatch.message);
  const country = catalog.findStore(options.store)!.country_code;
  const models = catalog.listModels(options.product, country);
  const unknown = (options.prefer ?? []).filter(
    (part) => !models.some((model) => model.part_number === part),
  );
  if (unknown.length > 0)
    throw new Error(`Not a model of ${options.product} here: ${unknown.join(', ')}`);
  const preferred = options.prefer ?? models.map((model) => model.part_number);
  const input = newSearchSchema.parse({
    product_type: options.product,
    store_id: options.store,
    include_nearby_store_results: options.nearby,
    max_distance_miles: options.maxDistance ?? null,
    product_models: preferred.map((part_number) => ({ part_number, is_preferred: true })),
  });
  const search = createLocalSearch(input, catalog, randomUUID(), new Date().toISOString());
  file.writeSearches([...searches, search]);
  const view = toSearchView(search, catalog, null);
  console.log(
    `Added ${search.id}: ${view.product_name} at ${view.store_name} (${search.preferred_parts.length} preferred models)`,
  );
}

/** Adds `watch list`. */
export function wireListCommand(watch: Command, catalog: DesktopCatalog): void {
  watch
    .command('list')
    .description('list the searches')
    .action(async () => listSearches(catalog));
}

/** Prints a line per search of the watch file, then where the file is. */
async function listSearches(catalog: DesktopCatalog): Promise<void> {
  const { file, warning } = await openWatchFile();
  if (warning !== null) console.error(warning);
  const searches = file.readSearches();
  if (searches.length === 0) console.log('No searches yet. Add one with `shelfwatch watch add`.');
  for (const search of searches) {
    const view = toSearchView(search, catalog, null);
    const nearby = search.include_nearby_store_results ? 'with nearby stores' : 'this store only';
    console.log(
      `${search.id}  ${view.product_name} at ${view.store_name} (${search.store_id}), ${nearby}, ${search.preferred_parts.length} preferred`,
    );
  }
  console.log(`Kept in ${file.path}`);
}

/** Adds `watch remove`. */
export function wireRemoveCommand(watch: Command): void {
  watch
    .command('remove')
    .argument('<id>', 'the search id (or its first 8 characters)')
    .description('remove a search')
    .action(async (id: string) => removeSearch(id));
}

/** Removes the one search whose id is or starts with `id`. */
async function removeSearch(id: string): Promise<void> {
  const { file } = await openWatchFile();
  const searches = file.readSearches();
  const matches = searches.filter((search) => search.id === id || search.id.startsWith(id));
  if (matches.length !== 1) {
    throw new Error(matches.length === 0 ? `No search ${id}` : `${id} matches several searches`);
  }
  file.writeSearches(searches.filter((search) => search !== matches[0]));
  console.log(`Removed ${matches[0].id}`);
}

/** Adds `watch products`. */
export function wireProductsCommand(watch: Command, catalog: DesktopCatalog): void {
  watch
    .command('products')
    .description('list product types and the countries where each is sold')
    .action(() => {
      // A type is only watched at stores of the countries where it is sold (`add` refuses others).
      for (const product of catalog.listProducts())
        console.log(
          `${product.product_id}  ${product.product_name}  (${product.sold_in.join(', ')})`,
        );
    });
}
