import type { Country, Product, Store } from '#shared/api/catalog.ts';
import type { SearchInventory } from '#shared/api/inventory.ts';
import type { NewSearch, Search, SearchUpdate } from '#shared/api/searches.ts';
import type { SearchHistory } from '#shared/api/watch.ts';
import type { ApiRequest, ApiResponse, IpcResult } from '#shared/desktop/ipc-contract.ts';
import type {
  DesktopAuthStatus,
  DesktopNotice,
  DesktopSettings,
  DesktopSettingsPatch,
  DesktopWatchStatus,
} from '#shared/desktop/local-search.ts';

/**
 * What only the macOS app offers: searches kept on the Mac and watched by its main process,
 * the bundled catalog, the watch loop and the app's settings. Every call answers an
 * IpcResult (errors carry a reason and a readable message; nothing throws across the bridge).
 */
export type DesktopHost = {
  searches: {
    list: () => Promise<IpcResult<Search[]>>;
    get: (id: string) => Promise<IpcResult<Search>>;
    create: (input: NewSearch) => Promise<IpcResult<Search>>;
    update: (id: string, update: SearchUpdate) => Promise<IpcResult<Search>>;
    remove: (id: string) => Promise<IpcResult<null>>;
    inventory: (id: string) => Promise<IpcResult<SearchInventory>>;
    history: (id: string, days: number) => Promise<IpcResult<SearchHistory>>;
  };
  catalog: {
    products: () => Promise<IpcResult<Product[]>>;
    stores: () => Promise<IpcResult<Store[]>>;
    countries: () => Promise<IpcResult<Country[]>>;
  };
  watch: {
    status: () => Promise<IpcResult<DesktopWatchStatus>>;
    checkNow: () => Promise<IpcResult<DesktopWatchStatus>>;
    setPaused: (paused: boolean) => Promise<IpcResult<DesktopWatchStatus>>;
  };
  settings: {
    get: () => Promise<IpcResult<DesktopSettings>>;
    update: (patch: DesktopSettingsPatch) => Promise<IpcResult<DesktopSettings>>;
  };
  /** Login in the system browser; tokens stay in the main process. */
  auth: {
    status: () => Promise<IpcResult<DesktopAuthStatus>>;
    /** Opens the browser and answers when the login finished, failed or was cancelled. */
    login: () => Promise<IpcResult<DesktopAuthStatus>>;
    cancelLogin: () => Promise<IpcResult<null>>;
    logout: () => Promise<IpcResult<DesktopAuthStatus>>;
  };
  /** Calls the Shelfwatch API as the signed-in user, through the main process. */
  api: { request: (request: ApiRequest) => Promise<IpcResult<ApiResponse>> };
  /** Notices kept for the user (each is answered once). */
  takeNotices: () => Promise<IpcResult<DesktopNotice[]>>;
  /** Calls back with an in-app path when the main process wants one shown; returns an unsubscribe. */
  onNavigate: (listener: (path: string) => void) => () => void;
  /** Calls back when local searches, inventory or the watch status changed; returns an unsubscribe. */
  onWatchChanged: (listener: () => void) => () => void;
  /** Calls back when the user logged in or out; returns an unsubscribe. */
  onAuthChanged: (listener: () => void) => () => void;
};

/**
 * The one type the renderer uses to talk to its host. The website implements it with
 * browser APIs; the macOS app implements it in its preload over typed IPC.
 */
export type HostBridge = {
  /** 'web' in a browser, 'desktop' inside the macOS app. */
  kind: 'web' | 'desktop';
  /** Opens an external address (billing portal, store page) outside the app. */
  openExternal: (url: string) => Promise<void>;
  /** Shows a notification the way the host can (desktop: native; web: Notification API). */
  showNotification: (notification: {
    title: string;
    body: string;
    searchId?: string;
  }) => Promise<void>;
  /** Present in the macOS app only. */
  desktop?: DesktopHost;
};

/** Name of the global the macOS app's preload exposes the bridge under. */
export const DESKTOP_BRIDGE_GLOBAL = 'shelfwatch';
