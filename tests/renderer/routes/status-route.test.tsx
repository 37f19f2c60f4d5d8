// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OperatorWatchStatus, PublicWatchStatus } from '#shared/api/watch.ts';
import { STATUS_ERROR_TEXT, StatusRoute } from '#renderer/routes/status.tsx';
import { createFakeApi, renderWithApp } from '#tests/renderer/test-harness.tsx';

// /status renders what /v2/status holds: the operator's sections only when the answer is the
// operator's view, words for each directory outcome, and an error a visitor can retry.

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const now = new Date();
const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();

const PUBLIC: PublicWatchStatus = {
  view: 'public',
  is_delayed: false,
  checked_at: now.toISOString(),
  countries: [
    {
      country_code: 'JP',
      shape: 'pickup-message',
      reason: 'pickup-message is asked first (the default)',
      since: null,
      control_part: null,
      freshness: {
        groups: 3,
        overdue_groups: 0,
        unchecked_groups: 1,
        oldest_check_at: minutesAgo(12),
        newest_check_at: minutesAgo(1),
      },
    },
  ],
  invalid_parts: [],
  freshness: {
    promise: 'every group fresh within 60 min (alerting groups within 15 min)',
    alerting_groups: 2,
    page_only_groups: 1,
    last_planned_at: minutesAgo(1),
    is_planner_stalled: false,
    overdue_groups: 0,
  },
  catalog_sync: null,
  directory_sync: [
    {
      country_code: 'JP',
      locale: 'ja_JP',
      synced_at: minutesAgo(5),
      outcome: 'read',
      http_status: 200,
      listed: 11,
      added: [],
      closed: ['R079'],
      reopened: [],
      last_success_at: minutesAgo(5),
    },
  ],
};

const OPERATOR: OperatorWatchStatus = {
  ...PUBLIC,
  view: 'operator',
  catalog_sync: null,
  freshness: { ...PUBLIC.freshness!, workers: 2, budget_per_minute: 4 },
  directory_sync: [{ ...PUBLIC.directory_sync![0], error: null }],
  hosts: [
    {
      host: 'www.apple.com',
      last_success_at: minutesAgo(1),
      last_failure_at: null,
      last_failure_kind: null,
      requests_last_15_minutes: 9,
      error_rate: 0,
      cool_down_until: null,
      is_cooling_down: false,
    },
  ],
  addresses: [
    {
      label: 'proxy proxy-1.example:8080',
      kind: 'proxy',
      rate_per_minute: 1,
      burst: 20,
      tokens: 12,
      is_cooling_down: false,
      cool_down_until: null,
      consecutive_blocks: 0,
      last_success_at: minutesAgo(1),
      last_failure_kind: null,
      is_live: true,
    },
  ],
};

function renderStatus(answer: () => { status: number; body?: unknown }) {
  const api = createFakeApi({ 'GET /status': answer });
  return renderWithApp([{ path: '/status', element: <StatusRoute /> }], { path: '/status', api });
}

describe('the status page', () => {
  it('shows the public view’s figures, explained, and no operator section', async () => {
    renderStatus(() => ({ status: 200, body: PUBLIC }));
    await screen.findByRole('heading', { name: 'Service status', level: 1 });
    expect(screen.getByTestId('delay-summary').textContent).toContain('Alerts are on time.');
    expect(screen.getByTestId('freshness-promise').textContent).toContain(
      'every group fresh within 60 min',
    );
    const japan = within(screen.getByTestId('country-freshness')).getByRole('row', {
      name: /Japan/,
    });
    expect(japan.textContent).toContain('12 minutes ago');
    expect(screen.getByRole('img', { name: /each country’s stores were checked/ })).toBeTruthy();
    expect(screen.getByTestId('directory-sync').textContent).toContain(
      '11 stores listed; closed: R079',
    );
    expect(screen.queryByTestId('operator-status')).toBeNull();
    expect(document.title).toBe('Service status | Shelfwatch');
  });

  it('adds the addresses, their budget and the hosts when the server sends the operator view', async () => {
    renderStatus(() => ({ status: 200, body: OPERATOR }));
    const section = await screen.findByTestId('operator-status');
    expect(section.textContent).toContain('2 workers share 4 requests a minute.');
    const proxy = within(screen.getByTestId('operator-addresses')).getByRole('row', {
      name: /proxy-1\.example/,
    });
    expect(proxy.textContent).toContain('12 of 20');
    expect(screen.getByTestId('operator-hosts').textContent).toContain('www.apple.com');
  });

  it('says when the status could not be loaded', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderStatus(() => ({ status: 500, body: { code: 'internal_error', reason: 'boom' } }));
    expect((await screen.findByRole('alert', {}, { timeout: 5_000 })).textContent).toBe(
      STATUS_ERROR_TEXT,
    );
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
