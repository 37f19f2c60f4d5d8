import type { BrowserWindowConstructorOptions, WebPreferences } from 'electron';

// The app window's options. The renderer is the website's code showing data from the network,
// so it runs as an untrusted web page: isolated, sandboxed, without Node, and talking to the
// main process only through the preload's bridge.

/** Size of the window on first launch. */
export const DEFAULT_WINDOW_SIZE = { width: 1100, height: 720 } as const;

/** Smallest size at which the shared screens still lay out (the website's small breakpoint). */
export const MIN_WINDOW_SIZE = { width: 720, height: 520 } as const;

/** Security settings of the window's web contents; tests and the harness assert these. */
export const WINDOW_SECURITY_PREFERENCES = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  webviewTag: false,
  experimentalFeatures: false,
  navigateOnDragDrop: false,
  safeDialogs: true,
} as const satisfies WebPreferences;

/**
 * The window's background before the page paints, as the shared screens' body in each
 * appearance (Bootstrap's light and dark `--bs-body-bg`): no white flash in dark mode.
 */
export const WINDOW_BACKGROUNDS = { light: '#ffffff', dark: '#212529' } as const;

/** The background for the system appearance (nativeTheme.shouldUseDarkColors). */
export function selectWindowBackground(isDark: boolean): string {
  return isDark ? WINDOW_BACKGROUNDS.dark : WINDOW_BACKGROUNDS.light;
}

/** Where the window opens: a remembered position (optional) and size. */
export type WindowBounds = { x?: number; y?: number; width: number; height: number };

/** Options of the main window: hidden until its first paint, secure web preferences. */
export function buildMainWindowOptions(options: {
  preloadPath: string;
  bounds?: WindowBounds;
  /** The system appearance is dark (nativeTheme.shouldUseDarkColors). */
  isDark?: boolean;
}): BrowserWindowConstructorOptions {
  const bounds: WindowBounds = options.bounds ?? DEFAULT_WINDOW_SIZE;
  return {
    ...(bounds.x !== undefined && bounds.y !== undefined ? { x: bounds.x, y: bounds.y } : {}),
    width: bounds.width,
    height: bounds.height,
    minWidth: MIN_WINDOW_SIZE.width,
    minHeight: MIN_WINDOW_SIZE.height,
    title: 'Shelfwatch',
    // Shown on 'ready-to-show' so the user never sees an empty white frame.
    show: false,
    backgroundColor: selectWindowBackground(options.isDark === true),
    webPreferences: {
      ...WINDOW_SECURITY_PREFERENCES,
      spellcheck: false,
      preload: options.preloadPath,
    },
  };
}
