import { describe, expect, it } from 'vitest';
import {
  buildMainWindowOptions,
  DEFAULT_WINDOW_SIZE,
  WINDOW_BACKGROUNDS,
  WINDOW_SECURITY_PREFERENCES,
} from '#electron/window/window-options.ts';

describe('main window options', () => {
  it('carry the security preferences and the preload', () => {
    const options = buildMainWindowOptions({ preloadPath: '/app/preload.cjs' });
    expect(options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
      preload: '/app/preload.cjs',
    });
    expect(options.webPreferences).toMatchObject(WINDOW_SECURITY_PREFERENCES);
  });

  it('open hidden with the default size, a title and a minimum size', () => {
    const options = buildMainWindowOptions({ preloadPath: '/p.cjs' });
    expect(options).toMatchObject({ show: false, title: 'Shelfwatch', ...DEFAULT_WINDOW_SIZE });
    expect(options.x).toBeUndefined();
    expect(options.minWidth).toBeGreaterThan(0);
    expect(options.minHeight).toBeGreaterThan(0);
  });

  it('use remembered bounds, with the position only when both coordinates are known', () => {
    const placed = buildMainWindowOptions({
      preloadPath: '/p.cjs',
      bounds: { x: 40, y: 50, width: 900, height: 600 },
    });
    expect(placed).toMatchObject({ x: 40, y: 50, width: 900, height: 600 });
    const sized = buildMainWindowOptions({
      preloadPath: '/p.cjs',
      bounds: { x: 40, width: 900, height: 600 },
    });
    expect(sized.x).toBeUndefined();
    expect(sized).toMatchObject({ width: 900, height: 600 });
  });

  it('paint the background of the system appearance before the page does', () => {
    expect(buildMainWindowOptions({ preloadPath: '/p.cjs' }).backgroundColor).toBe(
      WINDOW_BACKGROUNDS.light,
    );
    expect(buildMainWindowOptions({ preloadPath: '/p.cjs', isDark: true }).backgroundColor).toBe(
      '#212529',
    );
  });
});
