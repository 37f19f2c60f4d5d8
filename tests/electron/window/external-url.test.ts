import { describe, expect, it } from 'vitest';
import {
  buildExternalAllowList,
  isAllowedExternalUrl,
  isSafeExternalUrl,
  openExternalSafely,
} from '#electron/window/external-url.ts';
import { createFakeShell } from '../fakes.ts';

const REFUSED = [
  'file:///etc/passwd',
  'file:///Applications/Calculator.app',
  'javascript:alert(1)',
  'JavaScript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox',
  'smb://attacker.example/share',
  'ms-msdt:/id PCWDiagnostic',
  'shelfwatch://callback',
  'app://shelfwatch/',
  'x-apple-systempreferences:com.apple.preference.security',
  'mailto:support@shelfwatch.app',
  'http://',
  'https:///no-host',
  'https:\\\\evil.example',
  'https:evil.example',
  'https://user:pass@evil.example/',
  ' https://shelfwatch.app/',
  'https://shelfwatch.app/\n',
  'https://shelf\twatch.app/',
  'not a url',
  '',
  `https://shelfwatch.app/${'a'.repeat(3000)}`,
];

describe('external URLs', () => {
  it('accepts http and https web addresses', () => {
    expect(isSafeExternalUrl('https://shelfwatch.app/support')).toBe(true);
    expect(isSafeExternalUrl('http://localhost:5173/')).toBe(true);
    expect(isSafeExternalUrl('https://www.apple.com/shop/buy-iphone?x=1#y')).toBe(true);
  });

  it('refuses file:, javascript:, data:, custom schemes, credentials and garbage', () => {
    for (const url of REFUSED) expect(isSafeExternalUrl(url), url).toBe(false);
  });

  it('opens only safe addresses through the shell, in normalised form', async () => {
    const { shell, opened } = createFakeShell();
    expect(await openExternalSafely(shell, 'https://SHELFWATCH.app/support')).toBe(true);
    for (const url of REFUSED) expect(await openExternalSafely(shell, url), url).toBe(false);
    expect(opened).toEqual(['https://shelfwatch.app/support']);
  });

  const allowList = buildExternalAllowList({
    siteUrl: 'https://shelfwatch.app',
    supportEmail: 'support@shelfwatch.app',
    makerUrl: 'https://lanternapps.dev',
  });

  it('lets through only https to Apple and the site, and mail to the support address', () => {
    for (const url of [
      'https://www.apple.com/retail/fifthavenue/',
      'https://apple.com/shop/buy-iphone',
      'https://support.apple.com/en-us/102416',
      'https://shelfwatch.app/support',
      'https://lanternapps.dev/',
      'mailto:support@shelfwatch.app',
      'mailto:Support@Shelfwatch.app?subject=Help',
    ]) {
      expect(isAllowedExternalUrl(url, allowList), url).toBe(true);
    }
  });

  it('refuses http, foreign and look-alike hosts, other ports and other mail addresses', () => {
    for (const url of [
      'http://www.apple.com/',
      'http://shelfwatch.app/',
      'http://lanternapps.dev/',
      'https://example.com/',
      'https://apple.com.evil.example/',
      'https://evilapple.com/',
      'https://www.apple.com:8443/',
      'https://shelfwatch.app.evil.example/',
      'mailto:someone@example.com',
      'mailto:support@shelfwatch.app,victim@example.com',
      ...REFUSED.filter((url) => !url.startsWith('mailto:')),
    ]) {
      expect(isAllowedExternalUrl(url, allowList), url).toBe(false);
    }
  });

  it('allows a developer site on http://localhost by its exact origin only', () => {
    const local = buildExternalAllowList({
      siteUrl: 'http://localhost:3000',
      supportEmail: 'support@shelfwatch.app',
    });
    expect(isAllowedExternalUrl('http://localhost:3000/support', local)).toBe(true);
    expect(isAllowedExternalUrl('http://localhost:4000/', local)).toBe(false);
    const remoteHttp = buildExternalAllowList({
      siteUrl: 'http://shelfwatch.example',
      supportEmail: 'support@shelfwatch.app',
    });
    expect(isAllowedExternalUrl('http://shelfwatch.example/', remoteHttp)).toBe(false);
  });

  it('opens nothing the allow-list refuses', async () => {
    const { shell, opened } = createFakeShell();
    expect(await openExternalSafely(shell, 'https://example.com/', allowList)).toBe(false);
    expect(await openExternalSafely(shell, 'https://www.apple.com/x', allowList)).toBe(true);
    expect(opened).toEqual(['https://www.apple.com/x']);
  });
});
