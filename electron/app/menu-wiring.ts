import { buildAppMenuTemplate } from '#electron/menu/app-menu.ts';
import type { DesktopContext } from './desktop-context.ts';
import type { DesktopWatch } from './watch-wiring.ts';
import { showPath } from './window-wiring.ts';

/** Sets the application menu: the usual macOS roles plus Settings, Check Now, Support and Show Log. */
export function wireMenu(ctx: DesktopContext, watch: DesktopWatch): void {
  const { Menu, shell } = ctx.electron;
  const { logFilePath } = ctx;
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      buildAppMenuTemplate({
        appName: 'Shelfwatch',
        isMac: process.platform === 'darwin',
        isDevelopment: ctx.isDevelopment,
        onOpenSettings: () => showPath(ctx, '/settings'),
        onCheckNow: () => void watch.checkNow(),
        onOpenSupport: () => void ctx.openExternal(`${ctx.config.siteUrl}/support`),
        onShowLog: logFilePath === null ? undefined : () => shell.showItemInFolder(logFilePath),
      }),
    ),
  );
}
