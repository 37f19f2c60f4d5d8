// The sandboxed preload: exposes one object, the renderer's HostBridge, over the IPC
// channels of shared/desktop/ipc-contract.ts. It holds no logic: the main process validates
// every payload and answers { ok, value | error }.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { DESKTOP_BRIDGE_GLOBAL, type HostBridge } from '#shared/bridge.ts';
import {
  IPC_EVENT_CHANNELS,
  IPC_INVOKE_CHANNELS as CH,
  type IpcEventChannel,
  type IpcInvokeChannel,
} from '#shared/desktop/ipc-channels.ts';
import type { IpcResult } from '#shared/desktop/ipc-contract.ts';

/** Sends one request to the main process; the answer is always an IpcResult. */
function invoke<T>(channel: IpcInvokeChannel, payload?: unknown): Promise<IpcResult<T>> {
  return ipcRenderer.invoke(channel, payload) as Promise<IpcResult<T>>;
}

/** Subscribes to a main-process event; the listener never sees the IPC event object. */
function subscribe(channel: IpcEventChannel, listener: (payload: unknown) => void): () => void {
  const wrapped = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
  ipcRenderer.on(channel, wrapped);
  return () => {
    ipcRenderer.removeListener(channel, wrapped);
  };
}

/** Reads the result of a request whose failure the renderer cannot act on. */
async function expectOk(result: Promise<IpcResult<unknown>>): Promise<void> {
  const answer = await result;
  if (!answer.ok) throw new Error(answer.error.message);
}

const bridge = {
  kind: 'desktop',
  openExternal: (url) => expectOk(invoke(CH.shellOpenExternal, { url })),
  showNotification: (notification) => expectOk(invoke(CH.notificationsShow, notification)),
  desktop: {
    searches: {
      list: () => invoke(CH.searchesList),
      get: (id) => invoke(CH.searchesGet, { id }),
      create: (input) => invoke(CH.searchesCreate, input),
      update: (id, update) => invoke(CH.searchesUpdate, { id, update }),
      remove: (id) => invoke(CH.searchesRemove, { id }),
      inventory: (id) => invoke(CH.searchesInventory, { id }),
      history: (id, days) => invoke(CH.searchesHistory, { id, days }),
    },
    catalog: {
      products: () => invoke(CH.catalogProducts),
      stores: () => invoke(CH.catalogStores),
      countries: () => invoke(CH.catalogCountries),
    },
    watch: {
      status: () => invoke(CH.watchStatus),
      checkNow: () => invoke(CH.watchCheckNow),
      setPaused: (paused) => invoke(CH.watchSetPaused, { paused }),
    },
    settings: {
      get: () => invoke(CH.settingsGet),
      update: (patch) => invoke(CH.settingsUpdate, patch),
    },
    auth: {
      status: () => invoke(CH.authStatus),
      login: () => invoke(CH.authLogin),
      cancelLogin: () => invoke(CH.authCancel),
      logout: () => invoke(CH.authLogout),
    },
    api: { request: (request) => invoke(CH.apiRequest, request) },
    takeNotices: () => invoke(CH.noticesTake),
    onNavigate: (listener) =>
      subscribe(IPC_EVENT_CHANNELS.navigate, (payload) => {
        const path = (payload as { path?: unknown } | null)?.path;
        // Only in-app paths: the main process sends these, but the renderer trusts no input.
        if (typeof path === 'string' && path.startsWith('/') && !path.startsWith('//')) {
          listener(path);
        }
      }),
    onWatchChanged: (listener) => subscribe(IPC_EVENT_CHANNELS.watchChanged, () => listener()),
    onAuthChanged: (listener) => subscribe(IPC_EVENT_CHANNELS.authChanged, () => listener()),
  },
} satisfies HostBridge;

contextBridge.exposeInMainWorld(DESKTOP_BRIDGE_GLOBAL, bridge);
