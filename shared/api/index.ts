/** The /v2 contract: every request and response schema, shared by server and clients. */
export * from './errors.ts';
export * from './catalog.ts';
export * from './account.ts';
export * from './searches.ts';
export * from './inventory.ts';
export * from './billing.ts';
export * from './app-config.ts';
export * from './notifications.ts';
export * from './watch.ts';
export * from './channels.ts';
