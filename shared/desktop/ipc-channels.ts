// The one list of IPC channel names between the macOS app's preload and its main process,
// namespaced `area:verb`. Kept free of zod so the sandboxed preload bundle stays small; the
// payload schemas live beside them in ipc-contract.ts.

/** Request channels (renderer -> main, answered). */
export const IPC_INVOKE_CHANNELS = {
  searchesList: 'searches:list',
  searchesGet: 'searches:get',
  searchesCreate: 'searches:create',
  searchesUpdate: 'searches:update',
  searchesRemove: 'searches:remove',
  searchesInventory: 'searches:inventory',
  searchesHistory: 'searches:history',
  catalogProducts: 'catalog:products',
  catalogStores: 'catalog:stores',
  catalogCountries: 'catalog:countries',
  watchStatus: 'watch:status',
  watchCheckNow: 'watch:check-now',
  watchSetPaused: 'watch:set-paused',
  settingsGet: 'settings:get',
  settingsUpdate: 'settings:update',
  noticesTake: 'notices:take',
  shellOpenExternal: 'shell:open-external',
  notificationsShow: 'notifications:show',
  authStatus: 'auth:status',
  authLogin: 'auth:login',
  authCancel: 'auth:cancel',
  authLogout: 'auth:logout',
  apiRequest: 'api:request',
} as const;

/** Event channels (main -> renderer, no answer). */
export const IPC_EVENT_CHANNELS = {
  /** Go to a path inside the app (a notification was clicked): payload `{ path }`. */
  navigate: 'app:navigate',
  /** Local searches, inventory or the watch status changed: payload none. */
  watchChanged: 'watch:changed',
  /** The user logged in or out: payload none. */
  authChanged: 'auth:changed',
} as const;

/** A request channel name. */
export type IpcInvokeChannel = (typeof IPC_INVOKE_CHANNELS)[keyof typeof IPC_INVOKE_CHANNELS];
/** An event channel name. */
export type IpcEventChannel = (typeof IPC_EVENT_CHANNELS)[keyof typeof IPC_EVENT_CHANNELS];
