// @vitest-environment jsdom
import { readFileSync } from 'node:fs';
import path from 'node:path';
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
  });

  it('names the real universal build, as electron-builder.yml makes it', () => {
    renderWithApp([{ path: '/download', element: <DownloadRoute /> }], {
      path: '/download',
      config: { ...testConfig, macDownloadUrl: null },
    });
    const config = readFileSync(path.join(process.cwd(), 'electron-builder.yml'), 'utf8');
    const artifactName = /artifactName: (\S+)/.exec(config)?.[1] ?? '';
    const arches = [...config.matchAll(/arch: \[(\w+)\]/g)].map((match) => match[1]);
    expect(new Set(arches)).toEqual(new Set(['universal']));
    const dmgName = artifactName
      .replace('${productName}', 'Shelfwatch')
      .replace('${version}', '<version>')
      .replace('${arch}', 'universal')
      .replace('${ext}', 'dmg');
    const status = screen.getByRole('status').textContent;
    expect(status).toContain(dmgName);
    expect(status).not.toMatch(/arm64|x64/);
  });
});
