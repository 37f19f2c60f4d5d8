import { describe, expect, it, vi } from 'vitest';
import { createDesktopCatalog } from '#shared/desktop/desktop-catalog.ts';
import {
  DEFAULT_DESKTOP_SETTINGS,
  type DesktopSettings,
  type DesktopWatchStatus,
} from '#shared/desktop/local-search.ts';
import type { AccountBridge } from '#electron/app/account-bridge.ts';
import { createDesktopHandlers } from '#electron/app/desktop-handlers.ts';
import { DesktopError } from '#electron/ipc/desktop-error.ts';
import type { LocalSearchService } from '#electron/searches/local-search-service.ts';

const status: DesktopWatchStatus = {
  state: 'idle',
  last_check_at: null,
  next_check_at: null,
  is_failing: false,
  failing_since: null,
  failure_message: null,
  cool_down_until: null,
  search_count: 0,
};

/** Handlers over spies; settings kept in a variable. */
function createHandlers(openExternal: (url: string) => Promise<boolean> = async () => true) {
  let settings: DesktopSettings = { ...DEFAULT_DESKTOP_SETTINGS };
  const applyLaunchAtLogin = vi.fn();
  const reschedule = vi.fn();
  const handlers = createDesktopHandlers({
    searches: {} as LocalSearchService,
    catalog: createDesktopCatalog(),
    watch: {
      getStatus: () => status,
      checkNow: vi.fn(async () => undefined),
      setPaused: vi.fn(async () => status),
      reschedule,
    },
    settings: {
      read: () => settings,
      write: (next) => {
        settings = next;
      },
      applyLaunchAtLogin,
    },
    account: {} as AccountBridge,
    takeNotices: () => [],
    openExternal,
    showNotification: vi.fn(),
  });
  return { handlers, applyLaunchAtLogin, reschedule, readSettings: () => settings };
}

describe('desktop IPC handlers', () => {
  it('merges a settings change and turns launch at login on only when it changed', async () => {
    const { handlers, applyLaunchAtLogin, reschedule, readSettings } = createHandlers();
    await handlers['settings:update']({ check_interval_minutes: 10 });
    expect(applyLaunchAtLogin).not.toHaveBeenCalled();
    expect(reschedule).toHaveBeenCalledTimes(1);
    await handlers['settings:update']({ launch_at_login: true });
    expect(applyLaunchAtLogin).toHaveBeenCalledWith(true);
    expect(readSettings()).toEqual({
      ...DEFAULT_DESKTOP_SETTINGS,
      check_interval_minutes: 10,
      launch_at_login: true,
    });
  });

  it('refuses to open anything but a web address', async () => {
    const { handlers } = createHandlers(async (url) => url.startsWith('https:'));
    await expect(
      handlers['shell:open-external']({ url: 'https://shelfwatch.app' }),
    ).resolves.toBeNull();
    await expect(
      Promise.resolve().then(() => handlers['shell:open-external']({ url: 'file:///etc/passwd' })),
    ).rejects.toBeInstanceOf(DesktopError);
  });

  it('serves the bundled catalog with no server', async () => {
    const { handlers } = createHandlers();
    const products = (await handlers['catalog:products'](undefined)) as unknown[];
    const stores = (await handlers['catalog:stores'](undefined)) as unknown[];
    expect(products.length).toBeGreaterThan(20);
    expect(stores.length).toBeGreaterThan(50);
  });
});
