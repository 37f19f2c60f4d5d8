import { describe, expect, it } from 'vitest';
import { isSafeExternalUrl, openExternalSafely } from '#electron/window/external-url.ts';
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
});
