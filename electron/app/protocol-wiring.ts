import path from 'node:path';
import {
  APP_PRIVILEGED_SCHEME,
  APP_SCHEME,
  createAppProtocolHandler,
} from '#electron/protocol/app-protocol.ts';
import type { DesktopContext } from './desktop-context.ts';
import type { ElectronApi } from './electron-api.ts';

/** Makes app:// a secure, standard origin; Electron accepts this only before the app is ready. */
export function wireAppScheme(electron: Pick<ElectronApi, 'protocol'>): void {
  electron.protocol.registerSchemesAsPrivileged([APP_PRIVILEGED_SCHEME]);
}

/** Serves the bundled renderer and /app-config.json on app://, with the strict CSP. */
export function wireProtocol(ctx: DesktopContext): void {
  ctx.electron.protocol.handle(
    APP_SCHEME,
    createAppProtocolHandler({
      rendererDir: path.join(ctx.bundleDir, 'renderer'),
      appConfig: ctx.config.appConfig,
      connectSources: [ctx.config.siteUrl],
    }),
  );
}
