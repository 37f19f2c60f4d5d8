// The local watch loop: searches kept on the user's machine (the macOS app, the terminal
// watcher) polled directly from the upstream with the shared client, request planner and rules.

export * from './ask-upstream.ts';
export * from './check-cycle.ts';
export * from './local-plan.ts';
export * from './observe.ts';
export * from './run-request.ts';
export * from './state.ts';
export * from './views.ts';
export * from './watcher.ts';
