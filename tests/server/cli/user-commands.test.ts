import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAccountToken } from '#server/accounts/index.ts';
import { findUsersByEmail } from '#server/db/repositories/users-repository.ts';
import { seedCatalog } from '#server/catalog/catalog-seed.ts';
import { createUserSearch } from '#server/searches/searches-service.ts';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/test-database.ts';

const ROOT_DIR = fileURLToPath(new URL('../../..', import.meta.url));
const ISSUER = 'http://localhost:4123/';

describe('shelfwatch user add, list, remove and set-plan', () => {
  let testDb: TestDatabase;

  /** Runs `shelfwatch <args>` as its own process against the test database. */
  async function runCli(
    args: string[],
  ): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli.ts', ...args], {
      cwd: ROOT_DIR,
      env: { ...process.env, DATABASE_URL: testDb.url, IDP_ISSUER: ISSUER, AUTH0_DOMAIN: '' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    return { code, stdout, stderr };
  }

  beforeAll(async () => {
    testDb = await createTestDatabase();
    await seedCatalog(testDb.db);
  });
  afterAll(async () => testDb.drop());

  it('user add creates an account on the plan and prints a working finish-setup link', async () => {
    const result = await runCli(['user', 'add', 'Newcomer@Example.com', '--plan', 'better']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Created newcomer@example.com on the better plan.');
    const link = /http\S+/.exec(result.stdout)?.[0] ?? '';
    expect(link.startsWith(`${ISSUER}account/set-password?token=`)).toBe(true);
    const check = await checkAccountToken(testDb.db, new URL(link).searchParams.get('token') ?? '');
    expect(check).toMatchObject({ isUsable: true, email: 'newcomer@example.com' });
    const [user] = await findUsersByEmail(testDb.db, 'newcomer@example.com');
    expect(user).toMatchObject({ issuer: ISSUER, plan: 'better' });

    const again = await runCli(['user', 'add', 'newcomer@example.com', '--plan', 'best']);
    expect(again.stdout).toContain('newcomer@example.com already has an account (plan better');
    expect(await findUsersByEmail(testDb.db, 'newcomer@example.com')).toHaveLength(1);
  });

  it('user add refuses an unknown plan', async () => {
    const result = await runCli(['user', 'add', 'x@example.com', '--plan', 'gold']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('plan must be one of good, better, best');
    expect(await findUsersByEmail(testDb.db, 'x@example.com')).toHaveLength(0);
  });

  it('set-plan pauses the newest searches over the new limit, user list shows them', async () => {
    await runCli(['user', 'add', 'busy@example.com', '--plan', 'best']);
    const [user] = await findUsersByEmail(testDb.db, 'busy@example.com');
    for (const storeId of ['R095', 'R075', 'R217', 'R033', 'R029', 'R231']) {
      await createUserSearch(testDb.db, user, { product_type: 'iphone16pro', store_id: storeId });
    }
    const result = await runCli(['set-plan', 'busy@example.com', 'better']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Set 1 account(s) with email busy@example.com to better.');
    expect(result.stdout).toContain("Paused 1 search(es) over the plan's limit (newest first).");

    const list = await runCli(['user', 'list']);
    expect(list.code).toBe(0);
    const lines = list.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^EMAIL\s+PLAN\s+SEARCHES\s+CREATED$/);
    expect(lines.find((line) => line.startsWith('busy@example.com'))).toMatch(
      /^busy@example\.com\s+better\s+6 \(1 paused\)\s+\d{4}-\d\d-\d\d \d\d:\d\d$/,
    );
  });

  it('user remove deletes that account only', async () => {
    await runCli(['user', 'add', 'leaving@example.com', '--plan', 'better']);
    await runCli(['user', 'add', 'staying@example.com', '--plan', 'better']);
    const result = await runCli(['user', 'remove', 'leaving@example.com']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Removed 1 account(s) with email leaving@example.com.');
    expect(await findUsersByEmail(testDb.db, 'leaving@example.com')).toHaveLength(0);
    const logins = await testDb.db.selectFrom('idp_accounts').select('email').execute();
    expect(logins.map((login) => login.email)).not.toContain('leaving@example.com');
    expect(logins.map((login) => login.email)).toContain('staying@example.com');
    expect(await findUsersByEmail(testDb.db, 'staying@example.com')).toHaveLength(1);

    const missing = await runCli(['user', 'remove', 'leaving@example.com']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No account with email leaving@example.com');
  });
});
