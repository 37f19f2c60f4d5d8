// Preloaded into a `shelfwatch` process by lazy-commands.test.ts: appends every module URL the
// process resolves to the file named by IMPORT_LOG, so the test can see what a command loaded.
import { appendFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

registerHooks({
  resolve(specifier, context, nextResolve) {
    const result = nextResolve(specifier, context);
    appendFileSync(process.env.IMPORT_LOG ?? '', `${result.url}\n`);
    return result;
  },
});
