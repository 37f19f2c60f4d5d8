import { describe, expect, it } from 'vitest';
import { applyLaunchAtLogin } from '#electron/app/login-item.ts';
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
  });
});
