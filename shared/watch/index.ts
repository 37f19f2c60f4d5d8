// The watch engine's pure parts, shared by the server's poller and the desktop watch loop.

export * from './alert-channels.ts';
export * from './quiet-window.ts';
export * from './request-planner.ts';
export { packTypes, type TypeParts } from './part-packing.ts';
export * from './types.ts';
export * from './sweep-schedule.ts';
