import { runServer } from './run-server.ts';

runServer({ isWorkerIncluded: true }).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  if (error instanceof Error && error.cause !== undefined) {
    console.error('Cause:', error.cause);
  }
  process.exit(1);
});
