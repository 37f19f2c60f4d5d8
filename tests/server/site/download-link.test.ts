import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDownloadLinkResolver, pickDownloadUrl } from '#server/site/download-link.ts';

/** latest-mac.yml as electron-builder writes it for dmg and zip on both architectures. */
const MANIFEST = `version: 1.4.0
files:
  - url: Shelfwatch-1.4.0-x64.zip
    sha512: aaa
    size: 1
  - url: Shelfwatch-1.4.0-arm64.zip
    sha512: bbb
    size: 1
  - url: Shelfwatch-1.4.0-x64.dmg
    sha512: ccc
    size: 1
  - url: Shelfwatch-1.4.0-arm64.dmg
    sha512: ddd
    size: 1
path: Shelfwatch-1.4.0-x64.zip
sha512: aaa
releaseDate: '2026-11-20T10:00:00.000Z'
`;

let server: Server;
let feedUrl: string;
let requests = 0;
let isFeedUp = true;
beforeAll(async () => {
  server = createServer((request, response) => {
    requests += 1;
    if (isFeedUp && request.url === '/mac/latest-mac.yml') {
      response.writeHead(200, { 'content-type': 'text/yaml' }).end(MANIFEST);
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  feedUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mac`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('the download link from the macOS update feed', () => {
  it('links the Apple silicon .dmg of an older per-architecture feed', async () => {
    await expect(pickDownloadUrl(MANIFEST, 'https://downloads.example/mac/')).resolves.toBe(
      'https://downloads.example/mac/Shelfwatch-1.4.0-arm64.dmg',
    );
    await expect(
      pickDownloadUrl('version: 1.0.0\nfiles: []\n', 'https://d.example/'),
    ).resolves.toBeNull();
    await expect(pickDownloadUrl('not: [valid', 'https://d.example/')).resolves.toBeNull();
  });

  it('links the universal .dmg the build makes, before any per-architecture one', async () => {
    const universal = `version: 1.5.0
files:
  - url: Shelfwatch-1.5.0-universal.zip
    sha512: aaa
    size: 1
  - url: Shelfwatch-1.5.0-universal.dmg
    sha512: bbb
    size: 1
path: Shelfwatch-1.5.0-universal.zip
`;
    await expect(pickDownloadUrl(universal, 'https://downloads.example/mac/')).resolves.toBe(
      'https://downloads.example/mac/Shelfwatch-1.5.0-universal.dmg',
    );
    const mixed = universal.replace(
      'files:\n',
      'files:\n  - url: Shelfwatch-1.5.0-arm64.dmg\n    sha512: ccc\n    size: 1\n',
    );
    await expect(pickDownloadUrl(mixed, 'https://downloads.example/mac/')).resolves.toBe(
      'https://downloads.example/mac/Shelfwatch-1.5.0-universal.dmg',
    );
  });

  it('reads the feed once per ten minutes and keeps the last link while the feed is down', async () => {
    let clock = 0;
    const resolve = createDownloadLinkResolver({
      feedUrl,
      fetch,
      now: () => clock,
      log: () => undefined,
    });
    await expect(resolve()).resolves.toBe(`${feedUrl}/Shelfwatch-1.4.0-arm64.dmg`);
    const afterFirst = requests;
    clock += 5 * 60_000;
    await resolve();
    expect(requests).toBe(afterFirst);
    isFeedUp = false;
    clock += 6 * 60_000;
    await expect(resolve()).resolves.toBe(`${feedUrl}/Shelfwatch-1.4.0-arm64.dmg`);
    expect(requests).toBe(afterFirst + 1);
  });

  it('answers no link when the feed was never readable', async () => {
    isFeedUp = false;
    const resolve = createDownloadLinkResolver({
      feedUrl,
      fetch,
      now: () => 0,
      log: () => undefined,
    });
    await expect(resolve()).resolves.toBeNull();
  });
});
