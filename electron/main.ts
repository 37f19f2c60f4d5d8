// The macOS app's main-process entry: a thin shell that hands the real Electron module to
// startDesktopApp, where every behaviour lives (and is tested with a recording fake).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as electron from 'electron';
import electronLog from 'electron-log/main';
import { startDesktopApp } from '#electron/app/desktop-app.ts';
import { readDesktopConfig, selectConfigEnvironment } from '#electron/config/desktop-config.ts';
import { createAppLog } from '#electron/log/app-log.ts';

const bundleDir = path.dirname(fileURLToPath(import.meta.url));
const isDevelopment = !electron.app.isPackaged;
const appLog = createAppLog(electronLog, {
  logsDir: electron.app.getPath('logs'),
  isDevelopment,
});

// A bad variable (a developer's) is reported like any start failure, not thrown at load.
Promise.resolve()
  .then(() =>
    startDesktopApp(electron, {
      config: readDesktopConfig(selectConfigEnvironment(process.env, electron.app.isPackaged)),
      bundleDir,
      isDevelopment,
      log: appLog.error,
      info: appLog.info,
      logFilePath: appLog.filePath,
      updaterLogger: appLog.updaterLogger,
    }),
  )
  .catch((error: unknown) => {
    appLog.error('Shelfwatch could not start', error);
    electron.app.exit(1);
  });
