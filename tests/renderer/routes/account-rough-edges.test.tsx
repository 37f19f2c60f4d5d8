// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { describeInvalidInput } from '#renderer/api/api-errors.ts';
import { WEBHOOK_DOCS_PATH } from '#renderer/components/account/alert-channels.tsx';
import { ACCOUNT_SAVED_TEXT, AccountRoute } from '#renderer/routes/account.tsx';
import { account } from '#tests/renderer/fixtures.ts';
import { createFakeApi, renderWithApp, type FakeRoute } from '#tests/renderer/test-harness.tsx';

afterEach(cleanup);

function renderAccount(routes: Record<string, FakeRoute> = {}) {
  const api = createFakeApi({
    'GET /account': () => ({ status: 200, body: account }),
    'GET /account/channels': () => ({ status: 200, body: { channels: [] } }),
    ...routes,
  });
  return renderWithApp(
    [
      { path: '/account', element: <AccountRoute /> },
      { path: '/docs/webhooks', element: <p>webhook docs</p> },
    ],
    { path: '/account', api },
  );
}

/** An axios-like refusal, as readErrorBody sees one. */
function refusal(body: Record<string, string>) {
  return {
    isAxiosError: true,
    response: { status: 400, data: { code: 'invalid_input', ...body } },
  };
}

describe('My Account rough edges', () => {
  it('says which plan the user is on and its limits', async () => {
    renderAccount();
    const summary = await screen.findByTestId('plan-summary');
    expect(summary.textContent).toContain("You're on the Better plan.");
    expect(within(summary).getByText('Up to 5 searches on the website')).toBeTruthy();
    expect(within(summary).getByText('Email alerts')).toBeTruthy();
    expect(within(summary).getByText('No text alerts')).toBeTruthy();
    expect(within(summary).getByRole('link', { name: 'Compare plans' }).getAttribute('href')).toBe(
      '/plans',
    );
  });

  it('clears a stale channel error when the channel kind changes', async () => {
    renderAccount({
      'POST /account/channels': () => ({
        status: 400,
        body: {
          code: 'invalid_input',
          reason: "Some of the information sent isn't valid.",
          message: 'topic: A topic is 1 to 64 letters, digits, "-" or "_"',
          field: 'topic',
        },
      }),
    });
    const form = await screen.findByRole('form', { name: 'Add an alert channel' });
    fireEvent.click(within(form).getByRole('button', { name: 'Add channel' }));
    expect(await within(form).findByRole('alert')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('Add a channel'), {
      target: { value: 'discord' },
    });
    await waitFor(() => expect(within(form).queryByRole('alert')).toBeNull());
  });

  it('writes channel errors in plain words, without raw field keys', () => {
    expect(
      describeInvalidInput(refusal({ message: 'url: must be an https:// address', field: 'url' })),
    ).toBe('The address must be an https:// address.');
    expect(
      describeInvalidInput(
        refusal({
          message: 'server_url: Enter a full address, e.g. https://…',
          field: 'server_url',
        }),
      ),
    ).toBe('Enter a full address, e.g. https://…');
    expect(
      describeInvalidInput(
        refusal({
          message: 'label: Too big: expected string to have <=60 characters',
          field: 'label',
        }),
      ),
    ).toBe('The name is too long.');
    expect(
      describeInvalidInput(
        refusal({
          message: 'bot_token: Invalid input: expected string, received undefined',
          field: 'bot_token',
        }),
      ),
    ).toBe('Please fill in the bot token.');
    expect(describeInvalidInput(new Error('offline'))).toBeUndefined();
  });

  it('links "see the docs" for webhooks as a real link', async () => {
    renderAccount();
    const form = await screen.findByRole('form', { name: 'Add an alert channel' });
    fireEvent.change(within(form).getByLabelText('Add a channel'), {
      target: { value: 'webhook' },
    });
    const link = within(form).getByRole('link', {
      name: 'How to read and verify the webhook body',
    });
    expect(link.getAttribute('href')).toBe(WEBHOOK_DOCS_PATH);
  });

  it('confirms after Save account, until the next edit', async () => {
    renderAccount({ 'PATCH /account': () => ({ status: 200, body: account }) });
    await screen.findByDisplayValue('pat@example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Save account' }));
    expect(await screen.findByText(ACCOUNT_SAVED_TEXT)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'pat2@example.com' } });
    expect(screen.queryByText(ACCOUNT_SAVED_TEXT)).toBeNull();
  });
});
