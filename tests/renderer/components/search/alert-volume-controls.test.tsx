// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Account } from '#shared/api/account.ts';
import type { SettingChange } from '#shared/domain/search-settings.ts';
import { SearchSettings } from '#renderer/components/search/search-settings.tsx';
import { AccountRoute } from '#renderer/routes/account.tsx';
import { account, products, search, stores } from '#tests/renderer/fixtures.ts';
import { createFakeApi, renderWithApp } from '#tests/renderer/test-harness.tsx';

afterEach(cleanup);

function renderSettings(
  override: Partial<typeof search>,
  onChange: (change: SettingChange) => void,
) {
  render(
    <SearchSettings
      search={{ ...search, include_nearby_store_results: true, ...override }}
      products={products}
      stores={stores}
      isTextAllowed
      saveState={{ status: 'idle', control: null }}
      onChange={onChange}
    />,
  );
}

describe('alert volume controls (issue 42)', () => {
  it('shows the nearby distance in the store country’s unit and saves it in miles', () => {
    const changes: SettingChange[] = [];
    renderSettings(
      { max_distance_miles: 50 / 1.609344, distance_unit: 'km', alert_cadence_minutes: 15 },
      (change) => changes.push(change),
    );
    const field = screen.getByLabelText<HTMLInputElement>('Only stores within (km)');
    expect(field.value).toBe('50');
    expect(screen.getByText(/Default 50 km/)).toBeTruthy();
    fireEvent.change(field, { target: { value: '20' } });
    fireEvent.blur(field);
    expect(changes).toEqual([{ kind: 'maxDistance', miles: 20 / 1.609344 }]);
  });

  it('shows the cadence and saves another choice', () => {
    const changes: SettingChange[] = [];
    renderSettings(
      { max_distance_miles: 30, distance_unit: 'mi', alert_cadence_minutes: 15 },
      (change) => changes.push(change),
    );
    expect(screen.getByLabelText<HTMLInputElement>('Only stores within (miles)').value).toBe('30');
    const cadence = screen.getByLabelText<HTMLSelectElement>('Alert messages');
    expect(cadence.selectedOptions[0]?.textContent).toBe('At most every 15 minutes (default)');
    fireEvent.change(cadence, { target: { value: '60' } });
    expect(changes).toEqual([{ kind: 'alertCadence', minutes: 60 }]);
  });

  it('gives a new account the browser’s time zone, and lets My Account change it', async () => {
    const sent: unknown[] = [];
    const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    let current: Account = { ...account, time_zone: null };
    const api = createFakeApi({
      'GET /account': () => ({ status: 200, body: current }),
      'PATCH /account/time-zone': ({ body }) => {
        sent.push(body);
        current = { ...current, time_zone: (body as { time_zone: string }).time_zone };
        return { status: 200, body: current };
      },
    });
    renderWithApp([{ path: '/account', element: <AccountRoute /> }], { path: '/account', api });
    await waitFor(() => expect(sent).toEqual([{ time_zone: browserZone }]));
    const field = await screen.findByLabelText<HTMLSelectElement>('Time zone for alerts');
    await waitFor(() => expect(field.disabled).toBe(false));
    fireEvent.change(field, { target: { value: 'Asia/Tokyo' } });
    await waitFor(() =>
      expect(sent).toEqual([{ time_zone: browserZone }, { time_zone: 'Asia/Tokyo' }]),
    );
    expect(await screen.findByTestId('save-status-time-zone')).toHaveProperty(
      'textContent',
      'Saved',
    );
  });
});
