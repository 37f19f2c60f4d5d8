import type { MenuItemConstructorOptions } from 'electron';

// The application menu. macOS expects the standard roles (they carry the system's own labels,
// shortcuts and translations), so only the app's own commands are written out here.

/** What the menu needs to know and do. */
export type AppMenuOptions = {
  appName: string;
  isMac: boolean;
  /** Adds reload and the developer tools; never in a release. */
  isDevelopment?: boolean;
  onOpenSettings: () => void;
  onCheckNow: () => void;
  onOpenSupport: () => void;
  /** Reveals the log file support asks for; the item is left out without a log. */
  onShowLog?: () => void;
};

/** The application menu's template (pure; the caller builds and sets the Menu). */
export function buildAppMenuTemplate(options: AppMenuOptions): MenuItemConstructorOptions[] {
  const { appName, isMac } = options;
  const settingsItem: MenuItemConstructorOptions = {
    label: isMac ? 'Settings…' : 'Settings',
    accelerator: 'CmdOrCtrl+,',
    click: options.onOpenSettings,
  };
  const checkNowItem: MenuItemConstructorOptions = {
    label: 'Check Now',
    click: options.onCheckNow,
  };
  const firstMenu: MenuItemConstructorOptions = isMac
    ? {
        label: appName,
        submenu: [
          { role: 'about' },
          { type: 'separator' },
          settingsItem,
          checkNowItem,
          { type: 'separator' },
          { role: 'services' },
          { type: 'separator' },
          { role: 'hide' },
          { role: 'hideOthers' },
          { role: 'unhide' },
          { type: 'separator' },
          { role: 'quit' },
        ],
      }
    : {
        label: 'File',
        submenu: [
          settingsItem,
          checkNowItem,
          { type: 'separator' },
          { role: 'close' },
          { role: 'quit' },
        ],
      };
  // macOS's Window menu role has no Close item, so ⌘W needs a File menu that carries it
  // (role 'close': "Close Window", CmdOrCtrl+W); the window then hides as its red button does.
  const fileMenu: MenuItemConstructorOptions[] = isMac
    ? [{ label: 'File', submenu: [{ role: 'close' }] }]
    : [];
  const logItems: MenuItemConstructorOptions[] =
    options.onShowLog === undefined
      ? []
      : [{ type: 'separator' }, { label: 'Show Log', click: options.onShowLog }];
  return [
    firstMenu,
    ...fileMenu,
    { role: 'editMenu' },
    { label: 'View', submenu: buildViewItems(options.isDevelopment ?? false) },
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [{ label: `${appName} Support`, click: options.onOpenSupport }, ...logItems],
    },
  ];
}

/** Zoom and full screen; reload and developer tools only while developing. */
function buildViewItems(isDevelopment: boolean): MenuItemConstructorOptions[] {
  const developerItems: MenuItemConstructorOptions[] = isDevelopment
    ? [
        { role: 'reload' },
        { role: 'forceReload' },
        { role: 'toggleDevTools' },
        { type: 'separator' },
      ]
    : [];
  return [
    ...developerItems,
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
  ];
}
