// The macOS app's main-process entry: a thin shell that hands the real Electron module to
// startDesktopApp, where every behaviour lives (and is tested with a recording fake).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as electron from 'electron';
import { startDesktopApp } from '#electron/app/desktop-app.ts';
import { readDesktopConfig } from '#electron/config/desktop-config.ts';

const bundleDir = path.dirname(fileURLToPath(import.meta.url));

startDesktopApp(electron, {
  config: readDesktopConfig(process.env),
  bundleDir,
  isDevelopment: !electron.app.isPackaged,
}).catch((error: unknown) => {
  console.error('Shelfwatch could not start', error);
  electron.app.exit(1);
});
