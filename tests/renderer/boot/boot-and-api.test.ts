import { AxiosError, AxiosHeaders, type AxiosResponse } from 'axios';
import { describe, expect, it } from 'vitest';
import { appConfigSchema } from '#shared/api/app-config.ts';
import {
  describeCreateSearchError,
  describeRequestError,
  isUnansweredRequest,
  readErrorCode,
  shouldRetryQuery,
  UNEXPECTED_ERROR_TEXT,
  UnexpectedRequestError,
} from '#renderer/api/api-errors.ts';
import { HostRequestError } from '#renderer/api/host-errors.ts';
import { hasCallbackParams } from '#renderer/auth/callback-params.ts';
import { hasLoginHint } from '#renderer/auth/login-hint.ts';
import { readReturnTo } from '#renderer/auth/auth-provider.tsx';
import { isUsableAppConfig, loadAppConfig } from '#renderer/boot/load-app-config.ts';

const validConfig = {
  auth: {
    domain: 'http://localhost:4000',
    clientId: 'shelfwatch-web',
    audience: 'https://api.shelfwatch.app',
  },
  apiBaseUrl: '',
  supportEmail: 'support@shelfwatch.app',
  supportEndDate: '2025-09-08',
  maker: { name: 'Studio', url: 'https://studio.example' },
  isBillingConfigured: false,
  macDownloadUrl: null,
  cookiePrefix: 'shelfwatch_',
};

/** An axios error carrying an HTTP answer. */
function httpError(status: number, data: unknown = {}): AxiosError {
  const config = { headers: new AxiosHeaders() };
  const response: AxiosResponse = { status, statusText: '', data, headers: {}, config };
  return new AxiosError('failed', 'ERR_BAD_RESPONSE', config, null, response);
}

describe('app config check', () => {
  it('accepts what the contract accepts', () => {
    expect(appConfigSchema.safeParse(validConfig).success).toBe(true);
    expect(isUsableAppConfig(validConfig)).toBe(true);
  });

  it('rejects configs the site cannot start with', () => {
    for (const broken of [
      null,
      'x',
      {},
      { ...validConfig, auth: null },
      { ...validConfig, auth: { ...validConfig.auth, domain: '' } },
      { ...validConfig, isBillingConfigured: 'no' },
      { ...validConfig, maker: undefined },
    ]) {
      expect(isUsableAppConfig(broken)).toBe(false);
    }
  });

  it('loads /app-config.json and fails readably', async () => {
    const ok = () => Promise.resolve(new Response(JSON.stringify(validConfig), { status: 200 }));
    await expect(loadAppConfig(ok)).resolves.toEqual(validConfig);
    const down = () => Promise.resolve(new Response('', { status: 502 }));
    await expect(loadAppConfig(down)).rejects.toThrow(
      'The site settings could not be loaded (HTTP 502).',
    );
    const wrong = () => Promise.resolve(new Response('{"auth":1}', { status: 200 }));
    await expect(loadAppConfig(wrong)).rejects.toThrow(
      'The site settings are not in the expected format.',
    );
  });
});

describe('API error rules', () => {
  it('never retries 403, 404 or other client errors; retries others up to 3 times', () => {
    expect(shouldRetryQuery(0, httpError(403))).toBe(false);
    expect(shouldRetryQuery(0, httpError(404))).toBe(false);
    expect(shouldRetryQuery(0, httpError(429))).toBe(true);
    expect(shouldRetryQuery(2, httpError(500))).toBe(true);
    expect(shouldRetryQuery(3, httpError(500))).toBe(false);
    expect(shouldRetryQuery(0, new UnexpectedRequestError(new Error('offline')))).toBe(true);
  });

  it('words create errors from the reason sentence, else message, else unknown', () => {
    const limit = 'Your Better plan allows 5 searches. Upgrade to Premium to add more.';
    expect(
      describeCreateSearchError(
        httpError(403, { code: 'search_limit_reached', reason: limit, message: '5 of 5 in use' }),
      ),
    ).toBe(`Error: ${limit}`);
    expect(describeCreateSearchError(httpError(400, { message: 'Bad store' }))).toBe(
      'Error: Bad store',
    );
    expect(describeCreateSearchError(httpError(500, '<html>'))).toBe('Error: unknown');
    expect(
      describeCreateSearchError(
        new HostRequestError({ code: 'free_search_limit', reason: 'Log in.', message: 'x' }),
      ),
    ).toBe('Error: Log in.');
  });

  it('reads the machine code, not the sentence', () => {
    const body = { code: 'billing_not_configured', reason: 'Not set up.', message: '' };
    expect(readErrorCode(httpError(503, body))).toBe('billing_not_configured');
    expect(readErrorCode(httpError(503, { reason: 'billing_not_configured' }))).toBeUndefined();
    expect(
      readErrorCode(new HostRequestError({ code: 'not_found', reason: 'Gone.', message: 'Gone.' })),
    ).toBe('not_found');
  });

  it('shows the generic text for a request that got no answer, wherever it is shown', () => {
    const offline = new UnexpectedRequestError(new TypeError('Failed to fetch'));
    const aborted = new AxiosError('canceled', AxiosError.ERR_CANCELED);
    expect(isUnansweredRequest(offline)).toBe(true);
    expect(isUnansweredRequest(aborted)).toBe(true);
    expect(isUnansweredRequest(httpError(500))).toBe(false);
    expect(
      isUnansweredRequest(new HostRequestError({ code: 'x', reason: 'y', message: 'z' })),
    ).toBe(false);
    expect(describeCreateSearchError(offline)).toBe(UNEXPECTED_ERROR_TEXT);
    expect(describeRequestError(offline, 'Could not load.')).toBe(UNEXPECTED_ERROR_TEXT);
    expect(describeRequestError(httpError(500), 'Could not load.')).toBe('Could not load.');
  });

  it('names non-HTTP failures with the generic text', () => {
    expect(new UnexpectedRequestError(new Error('offline')).message).toBe(
      'An unexpected error occurred',
    );
  });
});

describe('login helpers', () => {
  /** A storage with these keys. */
  function storage(keys: string[]): Storage {
    return {
      length: keys.length,
      key: (index: number) => keys[index] ?? null,
      getItem: () => null,
      setItem: () => undefined,
      removeItem: () => undefined,
      clear: () => undefined,
    };
  }

  it('sees a possible login from the SDK cookie or token cache only', () => {
    expect(hasLoginHint('web', '', storage([]))).toBe(false);
    expect(hasLoginHint('web', 'a=1; auth0.web.is.authenticated=true', storage([]))).toBe(true);
    expect(hasLoginHint('web', '_legacy_auth0.web.is.authenticated=true', storage([]))).toBe(true);
    expect(hasLoginHint('web', 'auth0.other.is.authenticated=true', storage(['theme']))).toBe(
      false,
    );
    expect(hasLoginHint('web', '', storage(['@@auth0spajs@@::web::default::openid']))).toBe(true);
  });

  it('sees a login answer on /callback only with code and state, or an error', () => {
    expect(hasCallbackParams('?code=abc&state=xyz')).toBe(true);
    expect(hasCallbackParams('?error=access_denied&state=xyz')).toBe(true);
    expect(hasCallbackParams('')).toBe(false);
    expect(hasCallbackParams('?code=abc')).toBe(false);
    expect(hasCallbackParams('?utm_source=mail')).toBe(false);
  });

  it('returns only to paths inside the site', () => {
    expect(readReturnTo({ returnTo: '/account' })).toBe('/account');
    expect(readReturnTo({ returnTo: 'https://evil.example' })).toBe('/');
    expect(readReturnTo({ returnTo: '//evil.example' })).toBe('/');
    expect(readReturnTo(undefined)).toBe('/');
  });
});
