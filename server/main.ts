import { enableCompileCache } from 'node:module';

// Loading the server's modules is most of an unchanged start: Node keeps their compiled code
// (type-stripped TypeScript included) in its on-disk cache, so the next start skips compiling.
enableCompileCache();
const { runServer } = await import('./run-server.ts');

runServer({ isWorkerIncluded: true }).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  if (error instanceof Error && error.cause !== undefined) {
    console.error('Cause:', error.cause);
  }
  process.exit(1);
});
