// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AccountRoute } from '#renderer/routes/account.tsx';
import { account } from '#tests/renderer/fixtures.ts';
import { createFakeApi, renderWithApp, type FakeRoute } from '#tests/renderer/test-harness.tsx';

afterEach(cleanup);

const savedHours = {
  enabled: true,
  start: '22:00',
  end: '07:00',
  time_zone: 'Europe/Paris',
  always_for_preferred_at_my_store: false,
};

function renderAccount(routes: Record<string, FakeRoute>) {
  const api = createFakeApi({
    'GET /account': () => ({ status: 200, body: { ...account, quiet_hours: savedHours } }),
    ...routes,
  });
  return renderWithApp([{ path: '/account', element: <AccountRoute /> }], {
    path: '/account',
    api,
  });
}

describe('My Account quiet hours', () => {
  it('starts from the saved window and sends the whole setting on save', async () => {
    const sent: unknown[] = [];
    renderAccount({
      'PATCH /account/quiet-hours': ({ body }) => {
        sent.push(body);
        return { status: 200, body: { ...account, quiet_hours: body } };
      },
    });
    const form = await screen.findByRole('form', { name: 'Quiet hours' });
    const start = within(form).getByLabelText('Start');
    await waitFor(() => expect(start).toHaveProperty('value', '22:00'));
    expect(within(form).getByLabelText('Time zone')).toHaveProperty('value', 'Europe/Paris');
    fireEvent.change(start, { target: { value: '23:30' } });
    fireEvent.click(within(form).getByLabelText('Always for preferred models at my store'));
    fireEvent.click(within(form).getByRole('button', { name: 'Save quiet hours' }));
    await screen.findByText('Quiet hours saved.');
    expect(sent).toEqual([
      { ...savedHours, start: '23:30', always_for_preferred_at_my_store: true },
    ]);
  });

  it('names the field when the window is empty, without asking the server', async () => {
    const sent: unknown[] = [];
    renderAccount({
      'PATCH /account/quiet-hours': ({ body }) => {
        sent.push(body);
        return { status: 200, body: account };
      },
    });
    const form = await screen.findByRole('form', { name: 'Quiet hours' });
    const end = within(form).getByLabelText('End');
    await waitFor(() => expect(end).toHaveProperty('value', '07:00'));
    fireEvent.change(end, { target: { value: '22:00' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save quiet hours' }));
    const alert = await within(form).findByRole('alert');
    expect(alert.textContent).toBe('End: The end must differ from the start');
    expect(end.className).toContain('is-invalid');
    expect(sent).toEqual([]);
  });

  it("shows the server's 400 with the field's label", async () => {
    renderAccount({
      'PATCH /account/quiet-hours': () => ({
        status: 400,
        body: {
          code: 'invalid_input',
          reason: "Some of the information sent isn't valid.",
          message: 'time_zone: Choose a time zone from the list, e.g. America/New_York',
          field: 'time_zone',
        },
      }),
    });
    const form = await screen.findByRole('form', { name: 'Quiet hours' });
    await waitFor(() =>
      expect(within(form).getByLabelText('Start')).toHaveProperty('value', '22:00'),
    );
    fireEvent.click(within(form).getByRole('button', { name: 'Save quiet hours' }));
    const alert = await within(form).findByRole('alert');
    expect(alert.textContent).toBe(
      'Time zone: Choose a time zone from the list, e.g. America/New_York',
    );
  });
});
