import { AxiosError, AxiosHeaders, type AxiosResponse } from 'axios';
import { describe, expect, it } from 'vitest';
import { appConfigSchema } from '#shared/api/app-config.ts';
import {
  describeCreateSearchError,
  readErrorReason,
  shouldRetryQuery,
  UnexpectedRequestError,
} from '#renderer/api/api-errors.ts';
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

  it('words create errors from reason, else message, else unknown', () => {
    expect(
      describeCreateSearchError(
        httpError(403, { reason: 'search_limit_reached', message: 'Limit' }),
      ),
    ).toBe('Error: search_limit_reached');
    expect(describeCreateSearchError(httpError(400, { message: 'Bad store' }))).toBe(
      'Error: Bad store',
    );
    expect(describeCreateSearchError(httpError(500, '<html>'))).toBe('Error: unknown');
    expect(describeCreateSearchError(new UnexpectedRequestError(null))).toBe('Error: unknown');
    expect(readErrorReason(httpError(503, { reason: 'billing_not_configured', message: '' }))).toBe(
      'billing_not_configured',
    );
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

  it('returns only to paths inside the site', () => {
    expect(readReturnTo({ returnTo: '/account' })).toBe('/account');
    expect(readReturnTo({ returnTo: 'https://evil.example' })).toBe('/');
    expect(readReturnTo({ returnTo: '//evil.example' })).toBe('/');
    expect(readReturnTo(undefined)).toBe('/');
  });
});
