// The macOS app's contract: local searches, settings, watch status and the IPC channel list.

export * from './ipc-contract.ts';
export * from './local-search.ts';
export * from './status-text.ts';
export * from './desktop-catalog.ts';
export * from './search-view.ts';
