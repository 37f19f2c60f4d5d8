// The watch engine: planner glue, poller, snapshots and transitions, alert matching.

export * from './apply-answer.ts';
export * from './match-alerts.ts';
export * from './plan-cycle.ts';
export * from './egress.ts';
export * from './egress-agents.ts';
export * from './poll-job.ts';
export * from './poll-request.ts';
export * from './watcher.ts';
export * from './start-watcher.ts';
