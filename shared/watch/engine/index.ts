// The one watch engine: ask and judge, bisect, apply answers, choose seeds and controls. The
// server and the local loop each implement its port (watch-port.ts) over their own storage.

export * from './answer-observations.ts';
export * from './ask-request.ts';
export * from './engine-limits.ts';
export * from './plan-inputs.ts';
export * from './watch-port.ts';
