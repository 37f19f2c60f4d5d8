import { describe, expect, it } from 'vitest';
import {
  applyLaunchAtLogin,
  reconcileLaunchAtLogin,
  wasOpenedAtLogin,
} from '#electron/app/login-item.ts';
import { createFakeLoginItems } from '../fakes.ts';

describe('launch at login', () => {
  it('turns opening at login on and off', () => {
    const fake = createFakeLoginItems(false);
    expect(applyLaunchAtLogin(fake.app, true)).toBe(true);
    expect(fake.state.openAtLogin).toBe(true);
    expect(applyLaunchAtLogin(fake.app, false)).toBe(false);
    expect(fake.requests).toEqual([true, false]);
  });

  it('asks the system nothing when it is already as wanted', () => {
    const fake = createFakeLoginItems(true);
    expect(applyLaunchAtLogin(fake.app, true)).toBe(true);
    expect(fake.requests).toEqual([]);
  });

  it('answers what the system reports when it holds the change for approval', () => {
    const fake = createFakeLoginItems(false, { isApprovalHeld: true });
    expect(applyLaunchAtLogin(fake.app, true)).toBe(false);
    expect(fake.requests).toEqual([true]);
    expect(fake.state.status).toBe('requires-approval');
  });
});

describe('the login item checked against macOS at start', () => {
  it('keeps the switch on and says where to approve it while macOS waits for approval', () => {
    const fake = createFakeLoginItems(false, { isApprovalHeld: true });
    applyLaunchAtLogin(fake.app, true);
    const result = reconcileLaunchAtLogin(fake.app, true);
    expect(result.isEnabled).toBe(true);
    expect(result.notice).toContain('System Settings > General > Login Items');
  });

  it('turns the switch off and says so when the user removed the item in System Settings', () => {
    const fake = createFakeLoginItems(false);
    const result = reconcileLaunchAtLogin(fake.app, true);
    expect(result.isEnabled).toBe(false);
    expect(result.notice).toContain('removed in System Settings');
  });

  it('follows an item turned on outside the app, and agrees silently otherwise', () => {
    expect(reconcileLaunchAtLogin(createFakeLoginItems(true).app, false)).toEqual({
      isEnabled: true,
      notice: null,
    });
    expect(reconcileLaunchAtLogin(createFakeLoginItems(true).app, true)).toEqual({
      isEnabled: true,
      notice: null,
    });
    expect(reconcileLaunchAtLogin(createFakeLoginItems(false).app, false)).toEqual({
      isEnabled: false,
      notice: null,
    });
  });

  it('knows when macOS opened the app at login', () => {
    expect(wasOpenedAtLogin(createFakeLoginItems(true, { wasOpenedAtLogin: true }).app)).toBe(true);
    expect(wasOpenedAtLogin(createFakeLoginItems(true).app)).toBe(false);
  });
});
