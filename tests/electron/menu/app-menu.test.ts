import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { buildAppMenuTemplate, type AppMenuOptions } from '#electron/menu/app-menu.ts';

function createOptions(overrides: Partial<AppMenuOptions> = {}): AppMenuOptions {
  return {
    appName: 'Shelfwatch',
    isMac: true,
    onOpenSettings: vi.fn(),
    onCheckNow: vi.fn(),
    onOpenSupport: vi.fn(),
    ...overrides,
  };
}

/** Every label or role in the template, depth first. */
function listEntries(items: MenuItemConstructorOptions[]): string[] {
  return items.flatMap((item) => {
    const own = item.label ?? (item.role === undefined ? [] : `role:${item.role}`);
    const children = Array.isArray(item.submenu) ? listEntries(item.submenu) : [];
    return [own, ...children].flat();
  });
}

function findByLabel(
  items: MenuItemConstructorOptions[],
  label: string,
): MenuItemConstructorOptions | undefined {
  for (const item of items) {
    if (item.label === label) return item;
    if (Array.isArray(item.submenu)) {
      const found = findByLabel(item.submenu, label);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

describe('application menu', () => {
  it('has the macOS app menu roles, Settings… with Cmd+, and the standard menus', () => {
    const template = buildAppMenuTemplate(createOptions());
    const entries = listEntries(template);
    expect(template[0]?.label).toBe('Shelfwatch');
    for (const role of ['about', 'services', 'hide', 'hideOthers', 'unhide', 'quit']) {
      expect(entries, role).toContain(`role:${role}`);
    }
    expect(entries).toEqual(
      expect.arrayContaining(['role:editMenu', 'role:windowMenu', 'role:help', 'View']),
    );
    expect(findByLabel(template, 'Settings…')?.accelerator).toBe('CmdOrCtrl+,');
  });

  it('calls the app for Settings, Check Now and Support', () => {
    const options = createOptions();
    const template = buildAppMenuTemplate(options);
    const clickItem = (label: string) => (findByLabel(template, label)?.click as () => void)();
    clickItem('Settings…');
    clickItem('Check Now');
    clickItem('Shelfwatch Support');
    expect(options.onOpenSettings).toHaveBeenCalledTimes(1);
    expect(options.onCheckNow).toHaveBeenCalledTimes(1);
    expect(options.onOpenSupport).toHaveBeenCalledTimes(1);
  });

  it('leaves reload and the developer tools out of a release', () => {
    const release = listEntries(buildAppMenuTemplate(createOptions()));
    expect(release).not.toContain('role:toggleDevTools');
    expect(release).not.toContain('role:reload');
    const development = listEntries(buildAppMenuTemplate(createOptions({ isDevelopment: true })));
    expect(development).toContain('role:toggleDevTools');
    expect(development).toContain('role:reload');
  });

  it('puts Settings under File outside macOS', () => {
    const template = buildAppMenuTemplate(createOptions({ isMac: false }));
    expect(template[0]?.label).toBe('File');
    expect(listEntries(template)).not.toContain('role:services');
  });

  it('closes the window with ⌘W on macOS, from a File menu (the Window role has no Close there)', () => {
    const template = buildAppMenuTemplate(createOptions());
    const file = template.find((item) => item.label === 'File');
    expect(file?.submenu).toEqual([{ role: 'close' }]);
    expect(template.indexOf(file!)).toBe(1);
    expect(listEntries(buildAppMenuTemplate(createOptions({ isMac: false })))).toContain(
      'role:close',
    );
  });

  it('offers Show Log in Help when there is a log, and nothing otherwise', () => {
    const onShowLog = vi.fn();
    const template = buildAppMenuTemplate(createOptions({ onShowLog }));
    (findByLabel(template, 'Show Log')?.click as () => void)();
    expect(onShowLog).toHaveBeenCalledTimes(1);
    expect(listEntries(buildAppMenuTemplate(createOptions()))).not.toContain('Show Log');
  });
});
