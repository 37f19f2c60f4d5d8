import type { IpcMain } from 'electron';
import type { z } from 'zod';
import { buildErrorBody, ERROR_CODES } from '#shared/api/errors.ts';
import {
  IPC_INVOKE_CHANNELS,
  IPC_REQUEST_SCHEMAS,
  isIpcInvokeChannel,
  type IpcError,
  type IpcInvokeChannel,
  type IpcRequest,
  type IpcResult,
} from '#shared/desktop/ipc-contract.ts';
import { APP_ORIGIN } from '#electron/protocol/app-protocol.ts';
import { isDesktopError } from './desktop-error.ts';

// The one wrapper every request from the window goes through. The window is treated as
// untrusted input: the sender must be the app's own frame, the channel must be on the list and
// the payload must parse with the channel's schema before any handler (and so any store write)
// runs. Answers are always an IpcResult, so nothing throws across the bridge.

// `unknown` already covers a promise: handlers may be sync or async, the router awaits both.
/** One handler per request channel; each receives its payload already parsed. */
export type IpcHandlers = {
  [C in IpcInvokeChannel]: (payload: IpcRequest<C>) => unknown;
};

/** The part of a sender frame the router looks at. */
export type IpcSenderFrame = { url: string };

/** The part of an `ipcMain.handle` event the router looks at. */
export type IpcSenderEvent = { senderFrame: IpcSenderFrame | null };

/** Options of the dispatcher. */
export type IpcDispatcherOptions = {
  /** True when the event comes from the app window's own frame. */
  isTrustedSender: (event: IpcSenderEvent) => boolean;
  /** Where unexpected handler failures are reported (never to the window). */
  log?: (message: string, error?: unknown) => void;
};

/** Answers one request: checks, parses, runs the handler, wraps the outcome. */
export type IpcDispatch = (
  event: IpcSenderEvent,
  channel: unknown,
  payload: unknown,
) => Promise<IpcResult<unknown>>;

/** The message of every unexpected failure; details stay in the main process's log. */
export const INTERNAL_ERROR_MESSAGE = 'Something went wrong in Shelfwatch. Please try again.';

/** Builds the dispatcher every request channel is registered with. */
export function createIpcDispatcher(
  handlers: IpcHandlers,
  options: IpcDispatcherOptions,
): IpcDispatch {
  const log = options.log ?? ((message, error) => console.error(message, error ?? ''));
  return async (event, channel, payload) => {
    if (!options.isTrustedSender(event)) {
      return failWith(
        buildErrorBody('forbidden_sender', 'This request did not come from the Shelfwatch window.'),
      );
    }
    if (!isIpcInvokeChannel(channel)) {
      return failWith(buildErrorBody('unknown_channel', 'Shelfwatch does not know this request.'));
    }
    const parsed = IPC_REQUEST_SCHEMAS[channel].safeParse(payload);
    if (!parsed.success) return failWith(describeInvalidInput(parsed.error));
    // The channel and its handler are correlated, which TypeScript cannot follow through
    // the union; the schema lookup above guarantees the payload matches this handler.
    const handler = handlers[channel] as (input: unknown) => unknown;
    try {
      return { ok: true, value: await handler(parsed.data) };
    } catch (error) {
      if (isDesktopError(error)) return failWith(error.toIpcError());
      log(`IPC handler for '${channel}' failed`, error);
      return failWith(
        buildErrorBody(ERROR_CODES.internal, INTERNAL_ERROR_MESSAGE, {
          reason: INTERNAL_ERROR_MESSAGE,
        }),
      );
    }
  };
}

/** Registers the dispatcher for every request channel of the contract. */
export function registerIpcHandlers(ipcMain: Pick<IpcMain, 'handle'>, dispatch: IpcDispatch): void {
  for (const channel of Object.values(IPC_INVOKE_CHANNELS)) {
    ipcMain.handle(channel, (event, payload) => dispatch(event, channel, payload));
  }
}

/**
 * True only for a request from the app window's main frame while it shows an app:// page:
 * not a subframe, not another window, not a page the window was somehow navigated to.
 */
export function isAppFrameSender(
  event: IpcSenderEvent,
  getMainFrame: () => IpcSenderFrame | null | undefined,
): boolean {
  const frame = event.senderFrame;
  if (frame === null) return false;
  const mainFrame = getMainFrame();
  return (
    mainFrame !== null &&
    mainFrame !== undefined &&
    frame === mainFrame &&
    frame.url.startsWith(`${APP_ORIGIN}/`)
  );
}

/** The readable refusal of a payload: the first issue, prefixed with the field it names. */
function describeInvalidInput(error: z.ZodError): IpcError {
  const issue = error.issues[0];
  if (issue === undefined)
    return buildErrorBody(ERROR_CODES.invalidInput, 'The request was not valid.');
  const field = issue.path.map(String).join('.');
  return field === ''
    ? buildErrorBody(ERROR_CODES.invalidInput, issue.message)
    : buildErrorBody(ERROR_CODES.invalidInput, `${field}: ${issue.message}`, { field });
}

function failWith(error: IpcError): IpcResult<never> {
  return { ok: false, error };
}
