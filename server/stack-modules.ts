// What startStack needs once its database is open. Loading these modules (Fastify, the login
// provider...) is most of an unchanged start's time, so stack.ts imports this file while
// embedded PostgreSQL starts instead of before (issue 30). Billing (Stripe) loads only when
// configured, and alert delivery and the watcher (pg-boss) only once the server listens.
export { buildApp } from './app.ts';
export { readAccountSettings } from './accounts/index.ts';
export { migrateToLatest } from './db/migrate.ts';
export { createMetrics } from './metrics/metrics.ts';
export { createAlertRecorder } from './metrics/record-alert.ts';
export { createTokenVerifier } from './plugins/auth/token-verifier.ts';
export { DESKTOP_CLIENT_ID } from './plugins/idp/configuration.ts';
export { startIdentityProvider } from './plugins/idp/index.ts';
export { createDownloadLinkResolver } from './services/download-link.ts';
export { seedCatalog } from './services/catalog-service.ts';
export { startCatalogServices } from './catalog/catalog-services.ts';
export { ensureDemoAccount } from './services/demo-service.ts';
export { startUpstreamSimulator } from './watch/simulator/index.ts';
export { COUNTRY_SEEDS, PRODUCT_MODEL_SEEDS, STORE_SEEDS } from '#shared/catalog/index.ts';
