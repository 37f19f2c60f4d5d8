/** Catalog: seed countries, stores, product types and models; families; store-directory parser. */
export * from './types.ts';
export * from './countries.ts';
export * from './stores.ts';
export * from './families.ts';
export * from './models.ts';
export * from './catalog-file.ts';
export * from './buy-page.ts';
export * from './locale.ts';
export * from './store-directory.ts';
export * from './catalog-diff.ts';
