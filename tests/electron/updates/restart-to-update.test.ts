// "Restart to Update" when it does not restart: electron-updater's quitAndInstall throws,
// Squirrel.Mac reports an error instead of quitting (no write permission, a read-only volume),
// or nothing happens at all. Each must end the install attempt and say why.
import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import type { AppUpdater } from 'electron-updater';
import {
  INSTALL_TIMEOUT_MS,
  createUpdateService,
  describeUpdateProblem,
  type UpdateState,
} from '#electron/updates/update-service.ts';
import { createFakeTimers } from '../fakes.ts';

const READ_ONLY_ERROR =
  'Cannot update while running on a read-only volume. The application is on a read-only volume.';

/** electron-updater's updater with a ready update, whose quitAndInstall does what a test says. */
function setUp(quitAndInstall: (updater: EventEmitter) => void) {
  const updater = Object.assign(new EventEmitter(), {
    setFeedURL: vi.fn(),
    checkForUpdates: vi.fn(() => Promise.resolve(null)),
    quitAndInstall: vi.fn(() => quitAndInstall(updater)),
    autoDownload: false,
    autoInstallOnAppQuit: false,
  });
  const squirrel = new EventEmitter();
  const timers = createFakeTimers();
  const failures: UpdateState[] = [];
  const service = createUpdateService({
    updater: updater as unknown as AppUpdater,
    nativeUpdater: squirrel,
    feed: { url: 'http://127.0.0.1:9/' },
    isLoginInFlight: () => false,
    setTimer: timers.setTimer,
    log: () => undefined,
    onStateChange: () => undefined,
    onInstallFailed: (state) => failures.push(state),
  });
  service.start();
  updater.emit('update-available', { version: '0.2.0' });
  updater.emit('update-downloaded', { version: '0.2.0' });
  squirrel.emit('update-downloaded');
  return { service, updater, timers, failures };
}

describe('Restart to Update that does not restart', () => {
  it('reports a quitAndInstall that throws as a failed install', () => {
    const { service, failures } = setUp(() => {
      throw new Error('ShipIt could not be launched');
    });
    expect(service.getState().status).toBe('ready');
    expect(service.restartToUpdate()).toBe(true);
    expect(failures).toHaveLength(1);
    expect(service.getState()).toEqual({
      status: 'failed',
      version: '0.2.0',
      message: "Version 0.2.0 couldn't be installed: ShipIt could not be launched",
    });
    expect(describeUpdateProblem(service.getState())).toMatch(/couldn't be installed/);
  });

  it('reports Squirrel.Mac refusing to install as a failure, and a read-only volume as blocked', () => {
    const refused = setUp((updater) => updater.emit('error', new Error('Permission denied')));
    refused.service.restartToUpdate();
    expect(refused.failures.map((state) => state.status)).toEqual(['failed']);
    const readOnly = setUp((updater) => updater.emit('error', new Error(READ_ONLY_ERROR)));
    readOnly.service.restartToUpdate();
    expect(readOnly.failures.map((state) => state.status)).toEqual(['blocked']);
    expect(readOnly.service.getState().message).toMatch(/Applications folder/);
  });

  it('gives up waiting when the app has not quit after a while, and only once', () => {
    const { service, timers, failures } = setUp(() => undefined);
    service.restartToUpdate();
    expect(failures).toHaveLength(0);
    expect(timers.pendingCount()).toBeGreaterThan(0);
    timers.runAll();
    expect(failures).toHaveLength(1);
    expect(failures[0]?.message).toMatch(/did not restart/);
    expect(INSTALL_TIMEOUT_MS).toBeLessThanOrEqual(30_000);
    // No longer ready: the next check hands it to Squirrel again before a new attempt.
    expect(service.restartToUpdate()).toBe(false);
    timers.runAll();
    expect(failures).toHaveLength(1);
  });

  it('does nothing without a ready update', () => {
    const { service, updater } = setUp(() => undefined);
    updater.emit('update-not-available');
    expect(service.restartToUpdate()).toBe(false);
    expect(updater.quitAndInstall).not.toHaveBeenCalled();
  });
});
