/**
 * Catalog: seed countries, stores, product types and models; families; store-directory parser.
 * The buy-page reader (buy-page.ts) is imported by path: it brings an HTML parser that the
 * renderer and the Mac app, which import this index, have no use for.
 */
export * from './types.ts';
export * from './countries.ts';
export * from './stores.ts';
export * from './families.ts';
export * from './models.ts';
export * from './catalog-file.ts';
export * from './locale.ts';
export * from './country-from-locale.ts';
export * from './store-directory.ts';
export * from './catalog-diff.ts';
export * from './watch-kits.ts';
