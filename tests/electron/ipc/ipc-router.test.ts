import { describe, expect, it, vi } from 'vitest';
import { ERROR_REASON_TEXTS } from '#shared/api/errors.ts';
import { IPC_INVOKE_CHANNELS, type IpcInvokeChannel } from '#shared/desktop/ipc-contract.ts';
import { DesktopError } from '#electron/ipc/desktop-error.ts';
import {
  createIpcDispatcher,
  INTERNAL_ERROR_MESSAGE,
  isAppFrameSender,
  registerIpcHandlers,
  type IpcHandlers,
  type IpcSenderFrame,
} from '#electron/ipc/ipc-router.ts';
import { createFakeIpcMain } from '../fakes.ts';

const SEARCH_ID = '0b8c5d1e-6f4a-4c3b-9d2e-1a2b3c4d5e6f';
const appFrame: IpcSenderFrame = { url: 'app://shelfwatch/search/abc' };
const trustedEvent = { senderFrame: appFrame };

/** Handlers that are all spies answering their channel's name. */
function createSpyHandlers() {
  const entries = Object.values(IPC_INVOKE_CHANNELS).map((channel) => [
    channel,
    vi.fn(() => channel as unknown),
  ]);
  return Object.fromEntries(entries) as Record<IpcInvokeChannel, ReturnType<typeof vi.fn>>;
}

/** A dispatcher whose only trusted sender is `appFrame`, with spy handlers and log. */
function createDispatcher(overrides: Partial<IpcHandlers> = {}) {
  const spies = createSpyHandlers();
  const handlers = { ...spies, ...overrides } as unknown as IpcHandlers;
  const log = vi.fn();
  const dispatch = createIpcDispatcher(handlers, {
    isTrustedSender: (event) => isAppFrameSender(event, () => appFrame),
    log,
  });
  return { dispatch, spies, log };
}

function countCalls(spies: ReturnType<typeof createSpyHandlers>): number {
  return Object.values(spies).reduce((total, spy) => total + spy.mock.calls.length, 0);
}

describe('IPC dispatcher', () => {
  it('answers a valid request with the handler value and passes the parsed payload', async () => {
    const { dispatch, spies } = createDispatcher();
    const result = await dispatch(trustedEvent, 'searches:history', { id: SEARCH_ID, days: 7 });
    expect(result).toEqual({ ok: true, value: 'searches:history' });
    expect(spies['searches:history']).toHaveBeenCalledWith({ id: SEARCH_ID, days: 7 });
  });

  it('refuses a sender frame other than the app window main frame without calling a handler', async () => {
    const { dispatch, spies } = createDispatcher();
    const foreignFrame = { url: 'app://shelfwatch/' };
    const results = await Promise.all([
      dispatch({ senderFrame: foreignFrame }, 'searches:remove', { id: SEARCH_ID }),
      dispatch({ senderFrame: null }, 'searches:remove', { id: SEARCH_ID }),
    ]);
    for (const result of results) {
      expect(result).toMatchObject({
        ok: false,
        error: {
          code: 'forbidden_sender',
          reason: 'This request did not come from the Shelfwatch window.',
        },
      });
    }
    expect(countCalls(spies)).toBe(0);
  });

  it('refuses an unknown channel without calling a handler', async () => {
    const { dispatch, spies } = createDispatcher();
    for (const channel of ['searches:drop-all', '__proto__', 'toString', 42, null]) {
      const result = await dispatch(trustedEvent, channel, undefined);
      expect(result).toMatchObject({ ok: false, error: { code: 'unknown_channel' } });
    }
    expect(countCalls(spies)).toBe(0);
  });

  it('refuses a bad payload with a message naming the field and never calls the handler', async () => {
    const { dispatch, spies } = createDispatcher();
    const result = await dispatch(trustedEvent, 'searches:get', { id: 'not-a-uuid' });
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'invalid_input',
        reason: ERROR_REASON_TEXTS.invalid_input,
        message: 'id: Not a search id',
        field: 'id',
      },
    });
    const nested = await dispatch(trustedEvent, 'searches:history', { id: SEARCH_ID, days: 99 });
    expect(nested).toMatchObject({ ok: false, error: { code: 'invalid_input', field: 'days' } });
    const wrongType = await dispatch(trustedEvent, 'watch:set-paused', 'yes');
    expect(wrongType).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    const extraKey = await dispatch(trustedEvent, 'settings:update', { is_admin: true });
    expect(extraKey).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(countCalls(spies)).toBe(0);
  });

  it('answers a DesktopError with its code, reason, message and field', async () => {
    const { dispatch, log } = createDispatcher({
      'searches:create': () => {
        throw new DesktopError('free_search_limit', 'Log in to add more.', {
          message: '1 of 1 free searches in use',
          field: 'store_id',
        });
      },
    });
    const result = await dispatch(trustedEvent, 'searches:create', {
      product_type: 'iphone',
      store_id: 'R001',
    });
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'free_search_limit',
        reason: 'Log in to add more.',
        message: '1 of 1 free searches in use',
        field: 'store_id',
      },
    });
    expect(log).not.toHaveBeenCalled();
  });

  it('logs any other failure and answers internal_error without its details', async () => {
    const secret = new Error('SQLITE_CORRUPT at /Users/someone/Library/secret.db');
    const { dispatch, log } = createDispatcher({
      'watch:status': async () => {
        throw secret;
      },
    });
    const result = await dispatch(trustedEvent, 'watch:status', undefined);
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'internal_error',
        reason: INTERNAL_ERROR_MESSAGE,
        message: INTERNAL_ERROR_MESSAGE,
      },
    });
    expect(JSON.stringify(result)).not.toContain('secret');
    expect(log).toHaveBeenCalledWith(expect.stringContaining('watch:status'), secret);
  });
});

describe('registerIpcHandlers', () => {
  it('registers every request channel of the contract and routes it through the dispatcher', async () => {
    const { ipcMain, handlers } = createFakeIpcMain();
    const dispatch = vi.fn(async () => ({ ok: true as const, value: null }));
    registerIpcHandlers(ipcMain, dispatch);
    expect([...handlers.keys()].sort()).toEqual(Object.values(IPC_INVOKE_CHANNELS).sort());
    await handlers.get('watch:status')?.(trustedEvent, { any: 1 });
    expect(dispatch).toHaveBeenCalledWith(trustedEvent, 'watch:status', { any: 1 });
  });
});

describe('isAppFrameSender', () => {
  it('accepts only the main frame of the app window while it shows an app:// page', () => {
    const mainFrame = { url: 'app://shelfwatch/' };
    expect(isAppFrameSender({ senderFrame: mainFrame }, () => mainFrame)).toBe(true);
    // Another frame with an app URL (an iframe, another window) is not the main frame.
    expect(isAppFrameSender({ senderFrame: { url: 'app://shelfwatch/' } }, () => mainFrame)).toBe(
      false,
    );
    expect(isAppFrameSender({ senderFrame: null }, () => mainFrame)).toBe(false);
    expect(isAppFrameSender({ senderFrame: mainFrame }, () => null)).toBe(false);
    expect(isAppFrameSender({ senderFrame: mainFrame }, () => undefined)).toBe(false);
  });

  it('refuses the main frame once it shows a page of another origin', () => {
    for (const url of [
      'https://evil.example/',
      'file:///etc/passwd',
      'app://shelfwatch.evil/',
      'app://shelfwatchx/',
      'app://other/',
    ]) {
      const frame = { url };
      expect(isAppFrameSender({ senderFrame: frame }, () => frame)).toBe(false);
    }
  });
});

describe('DesktopError', () => {
  it('leaves the field out of its IpcError when there is none, and uses the reason as message', () => {
    const error = new DesktopError('not_found', 'Search not found');
    expect(error.toIpcError()).toEqual({
      code: 'not_found',
      reason: 'Search not found',
      message: 'Search not found',
    });
    expect(error).toBeInstanceOf(Error);
  });
});
