// The app's persistent log: electron-log's real file transport (its Node build, the same code
// as in the app without Electron), pointed where the app points it, with the redacting hook.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOG_MAX_BYTES, createAppLog, type LoggerLike } from '#electron/log/app-log.ts';
import { REDACTED, redactLogValue, redactSecrets } from '#electron/log/redact-secrets.ts';

const require = createRequire(import.meta.url);
const electronLog = require('electron-log/node') as LoggerLike & {
  create: (options: { logId: string }) => LoggerLike;
};

// A token as the login provider issues them (header.payload.signature, base64url).
const ACCESS_TOKEN =
  'eyJhbGciOiJSUzI1NiIsInR5cCI6ImF0K2p3dCJ9.eyJzdWIiOiJ1c2VyLTEiLCJhdWQiOiJzaGVsZndhdGNoIn0.c2lnbmF0dXJlLWJ5dGVz';
const REFRESH_TOKEN = 'Xk3pQ9vT2mZ8rL5wN1yB7cD4fG6hJ0sA';
const EMAIL = 'premium.user+mac@example.com';

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-log-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('redacting what the log must not hold', () => {
  it('replaces tokens, login secrets and email addresses wherever they appear', () => {
    expect(redactSecrets(`Authorization: Bearer ${ACCESS_TOKEN}`)).toBe(
      `Authorization: [redacted] ${REDACTED.token}`,
    );
    expect(redactSecrets(`token ${ACCESS_TOKEN} expired`)).toBe(`token ${REDACTED.token} expired`);
    expect(
      redactSecrets(`{"access_token":"${REFRESH_TOKEN}","refresh_token":"${REFRESH_TOKEN}"}`),
    ).not.toContain(REFRESH_TOKEN);
    expect(redactSecrets(`{ refreshToken: '${REFRESH_TOKEN}' }`)).not.toContain(REFRESH_TOKEN);
    expect(
      redactSecrets(`GET http://127.0.0.1:53180/callback?code=${REFRESH_TOKEN}&state=abc123`),
    ).toBe('GET http://127.0.0.1:53180/callback?code=[redacted]&state=[redacted]');
    expect(redactSecrets(`Logged in as ${EMAIL}`)).toBe(`Logged in as ${REDACTED.email}`);
  });

  it('leaves what support needs alone', () => {
    const line = 'Check ok near 10153 (R095): 1 answered (1 requests, 0 alerts); error code 8';
    expect(redactSecrets(line)).toBe(line);
    expect(redactSecrets('Update ready 0.2.0')).toBe('Update ready 0.2.0');
  });

  it('keeps an error an error, with its message and stack redacted', () => {
    const error = new Error(`refresh failed for ${EMAIL} with ${ACCESS_TOKEN}`);
    const safe = redactLogValue(error) as Error;
    expect(safe).toBeInstanceOf(Error);
    expect(safe.message).toBe(`refresh failed for ${REDACTED.email} with ${REDACTED.token}`);
    expect(safe.stack).not.toContain(ACCESS_TOKEN);
    expect(safe.stack).toContain('app-log.test.ts');
    expect(redactLogValue({ user: { email: EMAIL } })).toBe(
      `{ user: { email: '${REDACTED.email}' } }`,
    );
    expect(redactLogValue(42)).toBe(42);
  });
});

describe('the log file', () => {
  it('is written where the app says, with no token or email in it', async () => {
    const logsDir = path.join(folder, 'Logs', 'Shelfwatch');
    const appLog = createAppLog(electronLog.create({ logId: 'app-log-file' }), {
      logsDir,
      isDevelopment: false,
    });
    expect(appLog.filePath).toBe(path.join(logsDir, 'main.log'));
    appLog.info(`Logged in as ${EMAIL}`);
    appLog.error('API request failed', new Error(`401 for Bearer ${ACCESS_TOKEN}`));
    appLog.updaterLogger.info(`Checking ${'https://feed.example/'} with token=${REFRESH_TOKEN}`);
    const text = await readFile(appLog.filePath, 'utf8');
    expect(text).toContain(`Logged in as ${REDACTED.email}`);
    expect(text).toContain('API request failed');
    expect(text).toContain('Bearer [token]');
    for (const secret of [ACCESS_TOKEN, REFRESH_TOKEN, EMAIL]) expect(text).not.toContain(secret);
  });

  it('rotates: past its size the file moves to main.old.log and starts again', async () => {
    const logsDir = path.join(folder, 'rotating');
    const logger = electronLog.create({ logId: 'app-log-rotation' });
    const appLog = createAppLog(logger, { logsDir, isDevelopment: false });
    expect(logger.transports.file.maxSize).toBe(LOG_MAX_BYTES);
    // Shrunk so the test writes kilobytes, not a megabyte.
    logger.transports.file.maxSize = 2_000;
    for (let line = 0; line < 60; line += 1)
      appLog.info(`Check ok near 10153 (R095): line ${line}`);
    expect(existsSync(path.join(logsDir, 'main.old.log'))).toBe(true);
    expect((await readFile(appLog.filePath, 'utf8')).length).toBeLessThanOrEqual(2_200);
  });
});
