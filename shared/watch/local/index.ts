// The local watch loop: searches kept on the user's machine (the macOS app, the terminal
// watcher), asked of Apple directly through the one watch engine (shared/watch/engine) with
// this machine's memory as its storage.

export * from './check-cycle.ts';
export * from './check-deps.ts';
export * from './local-cadence.ts';
export * from './local-catalog.ts';
export * from './local-plan.ts';
export * from './local-port.ts';
export * from './local-retirement.ts';
export * from './local-sold-in.ts';
export * from './observe.ts';
export * from './request-budget.ts';
export * from './run-request.ts';
export * from './state.ts';
export * from './views.ts';
export * from './watcher.ts';
