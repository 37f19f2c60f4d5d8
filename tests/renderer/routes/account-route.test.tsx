// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { queryKeys } from '#renderer/api/query-keys.ts';
import {
  ACCOUNT_SAVE_FAILED_TEXT,
  AccountRoute,
  BILLING_NOT_CONFIGURED_TEXT,
} from '#renderer/routes/account.tsx';
import { account, search, stores } from '#tests/renderer/fixtures.ts';
import {
  createFakeApi,
  createUnreachableApi,
  renderWithApp,
  testConfig,
  type FakeAnswer,
  type FakeRoute,
} from '#tests/renderer/test-harness.tsx';

afterEach(cleanup);

/** Renders /account over a fake API. */
function renderAccount(routes: Record<string, FakeRoute>, config = testConfig) {
  const api = createFakeApi({ 'GET /account': () => ({ status: 200, body: account }), ...routes });
  return {
    ...renderWithApp([{ path: '/account', element: <AccountRoute /> }], {
      path: '/account',
      api,
      config,
    }),
    api,
  };
}

describe('My Account', () => {
  it('starts from the loaded values', async () => {
    renderAccount({});
    const email = await screen.findByDisplayValue('pat@example.com');
    expect(email.getAttribute('type')).toBe('email');
    expect(email.getAttribute('placeholder')).toBe('you@example.com');
    expect(screen.getByLabelText('Enable inventory update notifications')).toHaveProperty(
      'checked',
      true,
    );
    expect(screen.getByRole('button', { name: 'Save account' })).toHaveProperty('disabled', false);
    // The phone field defaults to the US and draws its bundled SVG flag, not a CDN's or an emoji.
    // The library hides the icon from assistive tech: its country select already names it.
    const flag = screen.getByRole('img', { name: 'United States', hidden: true });
    expect(flag.tagName).toBe('IMG');
    expect(flag.getAttribute('src')).toMatch(/\/(US|UM)[^/]*\.svg/);
    expect(flag.getAttribute('src')).not.toMatch(/^https?:/);
  });

  it('defaults the phone country to that of the store the person watches', async () => {
    renderAccount({
      'GET /account': () => ({ status: 200, body: { ...account, phone_number: null } }),
      'GET /stores': () => ({ status: 200, body: stores }),
      'GET /searches/my_searches': () => ({
        status: 200,
        body: [{ ...search, store_id: 'R092', store_name: 'Regent Street' }],
      }),
    });
    await screen.findByDisplayValue('pat@example.com');
    expect(await screen.findByRole('img', { name: 'United Kingdom', hidden: true })).toBeTruthy();
  });

  it('swaps the flag when the visitor picks another country', async () => {
    renderAccount({});
    await screen.findByDisplayValue('pat@example.com');
    fireEvent.change(screen.getByRole('combobox', { name: 'Phone number country' }), {
      target: { value: 'DE' },
    });
    const flag = await screen.findByRole('img', { name: 'Germany', hidden: true });
    expect(flag.getAttribute('src')).toMatch(/\/DE[^/]*\.svg/);
  });

  it('disables everything and says "Loading..." while loading', () => {
    renderAccount({ 'GET /account': () => new Promise<FakeAnswer>(() => undefined) });
    expect(screen.getByRole('button', { name: 'Loading...' })).toHaveProperty('disabled', true);
    expect(screen.getByLabelText('Email')).toHaveProperty('disabled', true);
    expect(screen.getByLabelText('Enable inventory update notifications')).toHaveProperty(
      'disabled',
      true,
    );
  });

  it('shows the exact failure message in red when saving fails', async () => {
    renderAccount({
      'PATCH /account': () => ({
        status: 400,
        body: {
          code: 'invalid_input',
          reason: "Some of the information sent isn't valid.",
          message: 'bad phone',
          field: 'phone_number',
        },
      }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Save account' }));
    const message = await screen.findByText(ACCOUNT_SAVE_FAILED_TEXT);
    expect(message.className).toContain('text-danger');
    expect(ACCOUNT_SAVE_FAILED_TEXT).toBe(
      'Failed to save account information. Please check that your phone number is entered correctly.',
    );
  });

  it('says "An unexpected error occurred" when the account request gets no answer', async () => {
    const api = await createUnreachableApi();
    renderWithApp([{ path: '/account', element: <AccountRoute /> }], { path: '/account', api });
    const alert = await screen.findByRole('alert', undefined, { timeout: 5000 });
    expect(alert.textContent).toBe('An unexpected error occurred');
  });

  it('says "An unexpected error occurred" when saving gets no answer', async () => {
    renderAccount({
      'PATCH /account': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Save account' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('An unexpected error occurred');
  });

  it('sends the form values and replaces the cached account on success', async () => {
    const sent: unknown[] = [];
    const saved = { ...account, email: 'new@example.com', enable_notifications: false };
    const { queryClient } = renderAccount({
      'PATCH /account': ({ body }) => {
        sent.push(body);
        return { status: 200, body: saved };
      },
    });
    const email = await screen.findByDisplayValue('pat@example.com');
    fireEvent.change(email, { target: { value: 'new@example.com' } });
    fireEvent.click(screen.getByLabelText('Enable inventory update notifications'));
    fireEvent.click(screen.getByRole('button', { name: 'Save account' }));
    await waitFor(() => expect(queryClient.getQueryData(queryKeys.myAccount)).toEqual(saved));
    expect(sent).toEqual([
      { email: 'new@example.com', phone_number: '+14155550123', enable_notifications: false },
    ]);
  });

  it('resets the form when fresh account data arrives', async () => {
    const { queryClient } = renderAccount({});
    const email = await screen.findByDisplayValue('pat@example.com');
    fireEvent.change(email, { target: { value: 'typing@example.com' } });
    act(() => {
      queryClient.setQueryData(queryKeys.myAccount, { ...account, email: 'server@example.com' });
    });
    expect(await screen.findByDisplayValue('server@example.com')).toBeTruthy();
  });

  it('explains instead of failing silently when billing is not configured', async () => {
    const { api } = renderAccount({});
    fireEvent.click(
      await screen.findByRole('button', { name: 'Manage subscription and payment link' }),
    );
    expect(await screen.findByText(BILLING_NOT_CONFIGURED_TEXT)).toBeTruthy();
    expect(api.calls).not.toContain('POST /account/create-portal-session');
  });

  it('explains a billing_not_configured answer too', async () => {
    renderAccount(
      {
        'POST /account/create-portal-session': () => ({
          status: 503,
          body: {
            code: 'billing_not_configured',
            reason: "Subscriptions aren't set up.",
            message: 'no',
          },
        }),
      },
      { ...testConfig, isBillingConfigured: true },
    );
    fireEvent.click(
      await screen.findByRole('button', { name: 'Manage subscription and payment link' }),
    );
    expect(await screen.findByText(BILLING_NOT_CONFIGURED_TEXT)).toBeTruthy();
  });
});
