#!/usr/bin/env node
// The command line on Node's own TypeScript type stripping, as `npm start` runs (bin/start.js),
// so the installed package needs no build step. Plain JavaScript so that it turns on Node's
// compile cache before any TypeScript loads: `shelfwatch --help` then answers in about a third
// of the time it took through tsx's loader, and `watch --help` in half.
import { enableCompileCache } from 'node:module';

enableCompileCache();
await import('../server/cli.ts');
