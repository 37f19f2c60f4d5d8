// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Channel } from '#shared/api/channels.ts';
import { AccountRoute } from '#renderer/routes/account.tsx';
import { account } from '#tests/renderer/fixtures.ts';
import { createFakeApi, renderWithApp, type FakeRoute } from '#tests/renderer/test-harness.tsx';

afterEach(cleanup);

const NTFY: Channel = {
  id: '7d0e8d0e-8c7c-4a52-9a43-3b8f9f1f4a01',
  kind: 'ntfy',
  label: 'My phone',
  target: 'ntfy.sh/pat-iphone',
  status: 'active',
  pause_reason: null,
  paused_at: null,
  last_failure: null,
  last_failure_at: null,
  last_success_at: null,
  created_at: '2026-11-20T10:00:00.000Z',
};
const PAUSED: Channel = {
  ...NTFY,
  id: '7d0e8d0e-8c7c-4a52-9a43-3b8f9f1f4a02',
  kind: 'discord',
  label: 'Team Discord',
  target: 'Discord webhook …4242 (discord.com)',
  status: 'paused',
  pause_reason: 'Paused after 5 failed deliveries in a row. Last: Discord answered 404',
  paused_at: '2026-11-21T10:00:00.000Z',
};

function renderAccount(routes: Record<string, FakeRoute>) {
  const api = createFakeApi({ 'GET /account': () => ({ status: 200, body: account }), ...routes });
  renderWithApp([{ path: '/account', element: <AccountRoute /> }], { path: '/account', api });
  return api;
}

describe('My Account alert channels', () => {
  it('shows a loading state, then the channels with a paused one explained', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    renderAccount({
      'GET /account/channels': async () => {
        await gate;
        return { status: 200, body: { channels: [NTFY, PAUSED] } };
      },
    });
    expect(await screen.findByText('Loading channels...')).toBeTruthy();
    release();
    expect(await screen.findByText('My phone')).toBeTruthy();
    expect(screen.getByText('ntfy.sh/pat-iphone')).toBeTruthy();
    expect(
      screen.getByText(/Paused after 5 failed deliveries in a row\. Last: Discord answered 404/),
    ).toBeTruthy();
    expect(screen.getByText(/send a test to turn it back on/)).toBeTruthy();
  });

  it('says so when the channels cannot be loaded', async () => {
    renderAccount({
      'GET /account/channels': () => ({
        status: 404,
        body: { code: 'not_found', reason: 'x', message: 'x' },
      }),
    });
    expect(
      await screen.findByText("Your alert channels couldn't be loaded. Please reload the page."),
    ).toBeTruthy();
  });

  it('adds a webhook, shows its secret once, and names the field of a refused address', async () => {
    const bodies: unknown[] = [];
    let isRefused = true;
    renderAccount({
      'GET /account/channels': () => ({ status: 200, body: { channels: [] } }),
      'POST /account/channels': ({ body }) => {
        bodies.push(body);
        if (isRefused) {
          isRefused = false;
          return {
            status: 400,
            body: {
              code: 'invalid_input',
              reason: "Some of the information sent isn't valid.",
              message: 'url: resolves to a private or local address',
              field: 'url',
            },
          };
        }
        return {
          status: 201,
          body: { ...NTFY, kind: 'webhook', label: 'Hook', secret: 'whsec_onceonly' },
        };
      },
    });
    expect(await screen.findByText('No channels yet.')).toBeTruthy();
    const form = screen.getByRole('form', { name: 'Add an alert channel' });
    fireEvent.change(within(form).getByLabelText('Add a channel'), {
      target: { value: 'webhook' },
    });
    fireEvent.change(within(form).getByLabelText('HTTPS URL'), {
      target: { value: 'https://hooks.example.com/in' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Add channel' }));
    expect(
      await screen.findByText('The address resolves to a private or local address.'),
    ).toBeTruthy();
    fireEvent.click(within(form).getByRole('button', { name: 'Add channel' }));
    expect(await screen.findByText('whsec_onceonly')).toBeTruthy();
    expect(bodies.at(-1)).toEqual({ kind: 'webhook', url: 'https://hooks.example.com/in' });
  });

  it('sends a test and shows its outcome', async () => {
    renderAccount({
      'GET /account/channels': () => ({ status: 200, body: { channels: [NTFY] } }),
      [`POST /account/channels/${NTFY.id}/test`]: () => ({
        status: 200,
        body: {
          delivered: false,
          message:
            'Not delivered: ntfy did not accept the message (the topic needs a valid access token).',
        },
      }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Send a test' }));
    await waitFor(() =>
      expect(
        screen.getByText(
          'Not delivered: ntfy did not accept the message (the topic needs a valid access token).',
        ),
      ).toBeTruthy(),
    );
  });

  it('says when tests are limited for now and when to try again', async () => {
    const reason = 'A channel can be tested 5 times a minute. Try again in 42 s.';
    renderAccount({
      'GET /account/channels': () => ({ status: 200, body: { channels: [NTFY] } }),
      [`POST /account/channels/${NTFY.id}/test`]: () => ({
        status: 429,
        body: { code: 'rate_limited', message: 'Too many requests; try again in 42 s', reason },
      }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Send a test' }));
    expect(await screen.findByText(reason)).toBeTruthy();
  });
});
