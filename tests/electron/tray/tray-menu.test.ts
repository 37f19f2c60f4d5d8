import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import type { DesktopWatchStatus } from '#shared/desktop/local-search.ts';
import { buildTrayMenu, describeNextCheck } from '#electron/tray/tray-menu.ts';

const NOW = Date.parse('2025-03-04T12:00:00.000Z');
const minutesFromNow = (minutes: number) => new Date(NOW + minutes * 60_000).toISOString();
const idle: DesktopWatchStatus = {
  state: 'idle',
  last_check_at: minutesFromNow(-2),
  next_check_at: minutesFromNow(3),
  is_failing: false,
  failing_since: null,
  failure_message: null,
  cool_down_until: null,
  search_count: 1,
};

function createActions() {
  return { open: vi.fn(), checkNow: vi.fn(), togglePause: vi.fn(), quit: vi.fn() };
}

function labelsOf(template: MenuItemConstructorOptions[]): string[] {
  return template.map((item) => (item.type === 'separator' ? '---' : (item.label ?? '')));
}

function findItem(template: MenuItemConstructorOptions[], label: string) {
  const item = template.find((candidate) => candidate.label === label);
  if (item === undefined) throw new Error(`No item '${label}'`);
  return item;
}

describe('tray menu', () => {
  it('shows the last and next check as disabled rows, then the commands', () => {
    const menu = buildTrayMenu(idle, NOW, createActions());
    expect(labelsOf(menu.template)).toEqual([
      'Last check: 2 minutes ago',
      'Next check: in 3 minutes',
      '---',
      'Check Now',
      'Pause Checks',
      '---',
      'Open Shelfwatch',
      'Quit Shelfwatch',
    ]);
    expect(menu.template[0]?.enabled).toBe(false);
    expect(menu.template[1]?.enabled).toBe(false);
    expect(menu.tooltip).toBe('Shelfwatch · Last check: 2 minutes ago');
    expect(menu.title).toBe('');
  });

  it('says never checked, paused and resume while paused', () => {
    const paused = { ...idle, state: 'paused' as const, last_check_at: null, next_check_at: null };
    const labels = labelsOf(buildTrayMenu(paused, NOW, createActions()).template);
    expect(labels.slice(0, 2)).toEqual(['Never checked', 'Paused']);
    expect(labels).toContain('Resume Checks');
    expect(labels).not.toContain('Pause Checks');
  });

  it('shows the failure reason and flags the icon while checks fail', () => {
    const failing = { ...idle, is_failing: true, failure_message: 'Apple is refusing requests' };
    const menu = buildTrayMenu(failing, NOW, createActions());
    expect(labelsOf(menu.template)).toContain('Checks are failing: Apple is refusing requests');
    expect(menu.title).toBe('!');
    expect(menu.tooltip).toBe('Shelfwatch · Checks are failing');
    const long = buildTrayMenu(
      { ...failing, failure_message: 'x'.repeat(500) },
      NOW,
      createActions(),
    );
    const row = labelsOf(long.template).find((label) => label.startsWith('Checks are failing'));
    expect(row?.length).toBeLessThan(120);
  });

  it('reads hours, days, less than a minute, checking and no searches', () => {
    const labelsFor = (status: Partial<DesktopWatchStatus>) =>
      labelsOf(buildTrayMenu({ ...idle, ...status }, NOW, createActions()).template).slice(0, 2);
    expect(
      labelsFor({ last_check_at: minutesFromNow(-125), next_check_at: minutesFromNow(0.5) }),
    ).toEqual(['Last check: 2 hours ago', 'Next check: in less than a minute']);
    expect(labelsFor({ last_check_at: minutesFromNow(-60 * 24 * 3) })[0]).toBe(
      'Last check: 3 days ago',
    );
    expect(labelsFor({ last_check_at: minutesFromNow(1) })[0]).toBe('Last check: just now');
    expect(labelsFor({ state: 'checking' })[1]).toBe('Checking now…');
    expect(labelsFor({ search_count: 0, next_check_at: null })[1]).toBe('No searches to check');
  });

  it('wires each command to its action and disables Check Now while checking', () => {
    const actions = createActions();
    const { template } = buildTrayMenu(idle, NOW, actions);
    for (const [label, action] of [
      ['Check Now', actions.checkNow],
      ['Pause Checks', actions.togglePause],
      ['Open Shelfwatch', actions.open],
      ['Quit Shelfwatch', actions.quit],
    ] as const) {
      const click = findItem(template, label).click as () => void;
      click();
      expect(action, label).toHaveBeenCalledTimes(1);
    }
    const checking = buildTrayMenu({ ...idle, state: 'checking' }, NOW, actions).template;
    expect(findItem(checking, 'Check Now').enabled).toBe(false);
  });

  it('puts extra items such as Restart to Update above Open and Quit', () => {
    const restart = { label: 'Restart to Update', click: vi.fn() };
    const { template } = buildTrayMenu(idle, NOW, createActions(), { extraItems: [restart] });
    expect(labelsOf(template).slice(-4)).toEqual([
      'Restart to Update',
      '---',
      'Open Shelfwatch',
      'Quit Shelfwatch',
    ]);
  });

  it('flags refused notifications and offers to open Notification Settings', () => {
    const openSettings = vi.fn();
    const menu = buildTrayMenu(idle, NOW, createActions(), {
      notificationProblem: { message: 'Notifications are not allowed', openSettings },
    });
    expect(menu.title).toBe('!');
    expect(menu.tooltip).toBe('Shelfwatch · Notifications are off');
    const item = findItem(menu.template, 'Open Notification Settings…');
    expect(item.click).toBe(openSettings);
  });

  it('says the app waits for the network after wake', () => {
    const waiting = { ...idle, state: 'paused' as const, is_waiting_for_network: true };
    expect(describeNextCheck(waiting, NOW)).toBe('Waiting for the network…');
    const labels = labelsOf(buildTrayMenu(waiting, NOW, createActions()).template);
    expect(labels).toContain('Pause Checks');
    expect(labels).not.toContain('Resume Checks');
  });
});
