import type {
  App,
  AutoUpdater,
  BrowserWindow,
  BrowserWindowConstructorOptions,
  Dialog,
  IpcMain,
  Menu,
  MenuItemConstructorOptions,
  NativeImage,
  NativeTheme,
  PowerMonitor,
  Protocol,
  SafeStorage,
  Net,
  Screen,
  Session,
  Shell,
} from 'electron';
import type { PowerSaveBlockerLike } from '#electron/power/app-nap-guard.ts';
import type { NotificationClass } from '#electron/notifications/alert-notifier.ts';

/** The parts of Electron the app uses; main.ts passes the real module, tests a recording fake. */
export type ElectronApi = {
  app: Pick<
    App,
    | 'isPackaged'
    | 'getVersion'
    | 'requestSingleInstanceLock'
    | 'quit'
    | 'whenReady'
    | 'on'
    | 'getPath'
    | 'setLoginItemSettings'
    | 'getLoginItemSettings'
    | 'isInApplicationsFolder'
    | 'moveToApplicationsFolder'
    | 'focus'
  > & {
    /** macOS only: the Dock icon. */
    dock?: Pick<NonNullable<App['dock']>, 'show' | 'hide'>;
  };
  /** Squirrel.Mac: its quitAndInstall closes the windows before before-quit fires. */
  autoUpdater: Pick<AutoUpdater, 'on'>;
  /** Chromium's network stack: every Apple and API request goes through net.fetch. */
  net: Pick<Net, 'isOnline' | 'fetch'>;
  powerSaveBlocker: PowerSaveBlockerLike;
  dialog: Pick<Dialog, 'showMessageBox'>;
  BrowserWindow: new (options: BrowserWindowConstructorOptions) => BrowserWindow;
  ipcMain: Pick<IpcMain, 'handle'>;
  protocol: Pick<Protocol, 'registerSchemesAsPrivileged' | 'handle'>;
  session: {
    defaultSession: Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler'>;
  };
  Notification: NotificationClass;
  Tray: new (image: NativeImage) => {
    /** The pointer reached the icon: the menu may open next. */
    on: (event: 'mouse-enter', listener: () => void) => unknown;
    setContextMenu: (menu: Menu) => void;
    setToolTip: (text: string) => void;
    setTitle: (title: string) => void;
  };
  Menu: {
    buildFromTemplate: (template: MenuItemConstructorOptions[]) => Menu;
    setApplicationMenu: (menu: Menu | null) => void;
  };
  nativeImage: { createFromPath: (path: string) => NativeImage };
  powerMonitor: Pick<PowerMonitor, 'on'>;
  shell: Pick<Shell, 'openExternal' | 'showItemInFolder'>;
  /** The system appearance, for the window's background before its page paints. */
  nativeTheme: Pick<NativeTheme, 'shouldUseDarkColors' | 'on'>;
  screen: Pick<Screen, 'getAllDisplays'>;
  safeStorage: Pick<SafeStorage, 'isEncryptionAvailable' | 'encryptString' | 'decryptString'>;
};
