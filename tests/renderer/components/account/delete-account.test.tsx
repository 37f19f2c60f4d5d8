// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ACCOUNT_DELETE_FAILED_TEXT } from '#renderer/components/account/delete-account-modal.tsx';
import { AccountRoute } from '#renderer/routes/account.tsx';
import { account } from '#tests/renderer/fixtures.ts';
import {
  createFakeApi,
  createFakeAuth,
  renderWithApp,
  testConfig,
  type FakeAnswer,
  type FakeRoute,
} from '#tests/renderer/test-harness.tsx';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

/** Renders /account over a fake API with a spy for logout. */
function renderAccount(routes: Record<string, FakeRoute>, config = testConfig) {
  const api = createFakeApi({ 'GET /account': () => ({ status: 200, body: account }), ...routes });
  const auth = createFakeAuth();
  renderWithApp([{ path: '/account', element: <AccountRoute /> }], {
    path: '/account',
    api,
    auth,
    config,
  });
  return { api, auth };
}

async function openDialog(): Promise<HTMLElement> {
  const button = await screen.findByRole('button', { name: 'Delete my account' });
  await waitFor(() => expect(button).toHaveProperty('disabled', false));
  fireEvent.click(button);
  return await screen.findByRole('dialog', { name: 'Delete your account?' });
}

describe('Delete my account', () => {
  it('asks first, and Cancel closes without deleting', async () => {
    const { api, auth } = renderAccount({
      'DELETE /account': () => ({ status: 204 }),
    });
    const dialog = await openDialog();
    expect(dialog.textContent).toContain('It cannot be undone.');
    expect(dialog.textContent).not.toContain('cancels your subscription');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.calls).not.toContain('DELETE /account');
    expect(auth.logout).not.toHaveBeenCalled();
  });

  it('says the subscription is cancelled too when billing is configured', async () => {
    renderAccount({}, { ...testConfig, isBillingConfigured: true });
    const dialog = await openDialog();
    expect(dialog.textContent).toContain('and cancels your subscription');
  });

  it('shows "Deleting..." with both buttons disabled, then logs out once deleted', async () => {
    let answer: (value: FakeAnswer) => void = () => undefined;
    const { api, auth } = renderAccount({
      'DELETE /account': () => new Promise<FakeAnswer>((resolve) => (answer = resolve)),
    });
    const dialog = await openDialog();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    const pending = await within(dialog).findByRole('button', { name: 'Deleting...' });
    expect(pending).toHaveProperty('disabled', true);
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveProperty('disabled', true);
    expect(api.calls).toContain('DELETE /account');
    expect(auth.logout).not.toHaveBeenCalled();
    answer({ status: 204 });
    await waitFor(() => expect(auth.logout).toHaveBeenCalledTimes(1));
  });

  it('shows the server reason when deletion fails, stays open and does not log out', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const reason =
      'Your subscription could not be cancelled right now, so nothing was deleted. Please try again in a few minutes.';
    let attempts = 0;
    const { auth } = renderAccount({
      'DELETE /account': () => {
        attempts += 1;
        return attempts === 1
          ? { status: 503, body: { code: 'service_unavailable', reason, message: 'x' } }
          : { status: 500, body: {} };
      },
    });
    const dialog = await openDialog();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(reason);
    expect(within(dialog).getByRole('button', { name: 'Delete' })).toHaveProperty(
      'disabled',
      false,
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(within(dialog).getByRole('alert').textContent).toBe(ACCOUNT_DELETE_FAILED_TEXT),
    );
    expect(auth.logout).not.toHaveBeenCalled();
  });
});
