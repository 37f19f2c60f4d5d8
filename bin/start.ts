// `npm start` in one process: the website rebuilt only when its sources changed (see
// build-site.ts), then the server with its worker (server/main.ts). It was a `prestart` script
// before, a Node process of its own: a fifth of a second of every unchanged start (issue 30).
import { buildSite } from './build-site.ts';

await buildSite({ isIfChanged: true });
await import('../server/main.ts');
