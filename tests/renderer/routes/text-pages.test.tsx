// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MarkdownText } from '#renderer/components/layout/markdown-text.tsx';
import { TermsRoute } from '#renderer/routes/legal.tsx';
import { SupportRoute } from '#renderer/routes/support.tsx';
import { renderWithApp } from '#tests/renderer/test-harness.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** Answers every fetch with this Markdown, or fails. */
function stubFetch(answer: { text: string } | { status: number }) {
  const fetchStub = vi.fn(() =>
    Promise.resolve(
      'text' in answer
        ? new Response(answer.text, { status: 200 })
        : new Response('', { status: answer.status }),
    ),
  );
  vi.stubGlobal('fetch', fetchStub);
  return fetchStub;
}

describe('MarkdownText', () => {
  it('renders Markdown and blanks javascript: links', () => {
    render(
      <MarkdownText
        text={
          '# Title\n\n[safe](https://example.com) [evil](javascript:alert(1)) [mail](mailto:a@b.c)'
        }
      />,
    );
    expect(screen.getByRole('heading', { name: 'Title' })).toBeTruthy();
    expect(screen.getByText('safe').getAttribute('href')).toBe('https://example.com');
    expect(screen.getByText('mail').getAttribute('href')).toBe('mailto:a@b.c');
    const evil = screen.getByText('evil').getAttribute('href') ?? '';
    expect(evil).not.toContain('javascript');
  });

  it('does not render raw HTML', () => {
    const { container } = render(
      <MarkdownText text={'Hello <img src=x onerror="alert(1)"> <b>bold</b>'} />,
    );
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('b')).toBeNull();
  });
});

describe('support and legal pages', () => {
  it('GETs the FAQ on mount and renders it under the exact headings', async () => {
    const fetchStub = stubFetch({ text: '### How do I start?\n\nCreate a search.' });
    renderWithApp([{ path: '/support', element: <SupportRoute /> }], { path: '/support' });
    expect(screen.getByRole('heading', { name: 'Frequently Asked Questions' })).toBeTruthy();
    expect(
      screen.getByText(
        "If you're having trouble using the product, check out some answers to common questions below.",
      ),
    ).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'How do I start?' })).toBeTruthy();
    expect(
      screen.getByText('Still having trouble? Feel free to reach out to support.'),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: /support@shelfwatch\.app/ }).getAttribute('href')).toBe(
      'mailto:support@shelfwatch.app',
    );
    expect(fetchStub).toHaveBeenCalledOnce();
  });

  it('says so when the FAQ cannot be loaded', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    stubFetch({ status: 404 });
    renderWithApp([{ path: '/support', element: <SupportRoute /> }], { path: '/support' });
    expect(
      await screen.findByText('Failed to load FAQ text. Please contact support.'),
    ).toBeTruthy();
  });

  it('renders a legal page with a hidden heading and the questions prompt', async () => {
    stubFetch({ text: 'We keep it short. [bad](javascript:void(0))' });
    renderWithApp([{ path: '/tos', element: <TermsRoute /> }], { path: '/tos' });
    expect(screen.getByRole('heading', { name: 'Terms of Service' }).className).toContain(
      'visually-hidden',
    );
    expect(await screen.findByText(/We keep it short\./)).toBeTruthy();
    expect(screen.getByText('bad').getAttribute('href') ?? '').not.toContain('javascript');
    expect(screen.getByText('Have questions? Feel free to reach out to support.')).toBeTruthy();
  });

  it('says so when a legal page cannot be loaded', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    stubFetch({ status: 500 });
    renderWithApp([{ path: '/tos', element: <TermsRoute /> }], { path: '/tos' });
    expect(await screen.findByText('Failed to load text. Please contact support.')).toBeTruthy();
  });
});
