// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DownloadRoute } from '#renderer/routes/download.tsx';
import { renderWithApp, testConfig } from '#tests/renderer/test-harness.tsx';

describe('download page', () => {
  afterEach(cleanup);

  it('links the download button to the published build', () => {
    renderWithApp([{ path: '/download', element: <DownloadRoute /> }], {
      path: '/download',
      config: { ...testConfig, macDownloadUrl: 'https://downloads.example.com/Shelfwatch-1.0.dmg' },
    });
    expect(screen.getByRole('link', { name: 'Download for macOS' }).getAttribute('href')).toBe(
      'https://downloads.example.com/Shelfwatch-1.0.dmg',
    );
    expect(screen.getByText(/Requires macOS Ventura 13.0/)).toBeTruthy();
  });

  it('disables the button and says why when no build is published', () => {
    renderWithApp([{ path: '/download', element: <DownloadRoute /> }], {
      path: '/download',
      config: { ...testConfig, macDownloadUrl: null },
    });
    expect(screen.getByRole('button', { name: 'Download for macOS' })).toHaveProperty(
      'disabled',
      true,
    );
    const status = screen.getByRole('status').textContent;
    expect(status).toContain('not published on this site yet');
    // The names `npm run dist:mac` gives the files (electron-builder.yml artifactName).
    expect(status).toContain('Shelfwatch-<version>-arm64.dmg');
    expect(status).toContain('Shelfwatch-<version>-x64.dmg');
  });
});
