// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { followSystemColorScheme } from '#renderer/styles/color-scheme.ts';

/** A media query list whose answer the test changes, as macOS's appearance setting would. */
function createMedia(matches: boolean) {
  const listeners: ((event: { matches: boolean }) => void)[] = [];
  const media = {
    matches,
    addEventListener: (_type: 'change', listener: (event: { matches: boolean }) => void) => {
      listeners.push(listener);
    },
  };
  return {
    media: media as unknown as Pick<MediaQueryList, 'matches' | 'addEventListener'>,
    change: (isDark: boolean) => {
      for (const listener of listeners) listener({ matches: isDark });
    },
  };
}

describe('dark mode follows the system', () => {
  it("sets Bootstrap's theme from prefers-color-scheme and follows its changes", () => {
    const root = document.createElement('html');
    const { media, change } = createMedia(true);
    followSystemColorScheme(root, media);
    expect(root.dataset.bsTheme).toBe('dark');
    change(false);
    expect(root.dataset.bsTheme).toBe('light');
    change(true);
    expect(root.dataset.bsTheme).toBe('dark');
  });

  it('starts light on a light system', () => {
    const root = document.createElement('html');
    followSystemColorScheme(root, createMedia(false).media);
    expect(root.dataset.bsTheme).toBe('light');
  });
});
