// What startStack needs once its database is open. Loading these modules (Fastify, the login
// provider...) is most of an unchanged start's time, so stack.ts imports this file while
// embedded PostgreSQL starts instead of before (issue 30). Billing (Stripe) loads only when
// configured, and alert delivery and the watcher (pg-boss) only once the server listens.
export { buildApp } from './app.ts';
export { readAccountSettings } from './accounts/index.ts';
export { migrateToLatest } from './db/migrate.ts';
export { createMetrics } from './ops/metrics.ts';
export { resolveMetricsToken } from './ops/metrics-token.ts';
export { createAlertRecorder } from './notify/record-alert.ts';
export { createTokenVerifier } from './http/auth/token-verifier.ts';
export { DESKTOP_CLIENT_ID } from './identity/configuration.ts';
export { startIdentityProvider } from './identity/index.ts';
export { createDownloadLinkResolver } from './site/download-link.ts';
export { seedCatalog } from './catalog/catalog-seed.ts';
export { startCatalogServices } from './catalog/catalog-background.ts';
export { ensureDemoAccount } from './searches/demo-account.ts';
export { startUpstreamSimulator } from './simulator/index.ts';
export { COUNTRY_SEEDS, PRODUCT_MODEL_SEEDS, STORE_SEEDS } from '#shared/catalog/index.ts';
