#!/usr/bin/env node
// Runs the TypeScript command line through tsx, so the installed package needs no build step.
import { register } from 'tsx/esm/api';

register();
await import('../server/cli.ts');
