/** Catalog: seed countries, stores, product types and models; families; store-directory parser. */
export * from './types.ts';
export * from './countries.ts';
export * from './stores.ts';
export * from './product-types.ts';
export * from './families.ts';
export * from './iphone16-parts.ts';
export * from './models.ts';
export * from './models-us.ts';
export * from './locale.ts';
export * from './store-directory.ts';
