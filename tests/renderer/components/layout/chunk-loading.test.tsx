// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChunkLoadErrorScreen } from '#renderer/components/layout/chunk-load-error-screen.tsx';
import {
  CHUNK_LOAD_TIMEOUT_MS,
  ChunkLoadError,
  isChunkLoadError,
  loadChunk,
} from '#renderer/components/layout/chunk-loading.ts';
import { lazyScreen, ScreenFrame } from '#renderer/router.tsx';
import { renderWithApp } from '#tests/renderer/test-harness.tsx';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('loadChunk', () => {
  it('passes a loaded module through', async () => {
    await expect(loadChunk(() => Promise.resolve({ answer: 42 }))).resolves.toEqual({ answer: 42 });
  });

  it('turns an import failure into a ChunkLoadError', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const failure = loadChunk(() =>
      Promise.reject(new TypeError('Failed to fetch dynamically imported module')),
    );
    await expect(failure).rejects.toBeInstanceOf(ChunkLoadError);
    await expect(failure.catch((error: unknown) => isChunkLoadError(error))).resolves.toBe(true);
  });

  it('gives up after the spec timeout of 120 seconds', async () => {
    vi.useFakeTimers();
    expect(CHUNK_LOAD_TIMEOUT_MS).toBe(120_000);
    const pending = loadChunk(() => new Promise<never>(() => undefined));
    const outcome = pending.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(119_999);
    await vi.advanceTimersByTimeAsync(1);
    expect(await outcome).toBeInstanceOf(ChunkLoadError);
  });
});

describe('chunk-load error screen', () => {
  it('offers a retry', () => {
    const onRetry = vi.fn();
    render(<ChunkLoadErrorScreen onRetry={onRetry} />);
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it('is what a route shows when its lazy module fails to load', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const FailingScreen = lazyScreen(
      () => Promise.reject(new TypeError('Failed to fetch dynamically imported module')),
      () => () => null,
    );
    renderWithApp(
      [
        {
          path: '/',
          element: <ScreenFrame />,
          children: [{ index: true, element: <FailingScreen /> }],
        },
      ],
      { path: '/' },
    );
    expect(await screen.findByRole('button', { name: 'Retry' })).toBeTruthy();
    expect(screen.getByText("This page didn't load")).toBeTruthy();
  });

  it('waits for a lazy screen with a spinner, and a new path clears an error', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let finishLoad: (module: { Page: () => React.ReactNode }) => void = () => undefined;
    const SlowScreen = lazyScreen(
      () => new Promise<{ Page: () => React.ReactNode }>((resolve) => (finishLoad = resolve)),
      (module) => module.Page,
    );
    const FailingScreen = lazyScreen(
      () => Promise.reject(new TypeError('Failed to fetch dynamically imported module')),
      () => () => null,
    );
    const { router } = renderWithApp(
      [
        {
          path: '/',
          element: <ScreenFrame />,
          children: [
            { index: true, element: <FailingScreen /> },
            { path: 'slow', element: <SlowScreen /> },
          ],
        },
      ],
      { path: '/' },
    );
    expect(await screen.findByRole('button', { name: 'Retry' })).toBeTruthy();
    await act(() => router.navigate('/slow'));
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
    expect(screen.getByRole('status')).toBeTruthy();
    await act(async () => finishLoad({ Page: () => <p>Slow page</p> }));
    expect(await screen.findByText('Slow page')).toBeTruthy();
  });
});
