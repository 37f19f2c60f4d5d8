import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT_DIR = fileURLToPath(new URL('../../..', import.meta.url));
const RECORDER = fileURLToPath(new URL('./record-imports.ts', import.meta.url));
const COMMANDS = ['migrate', 'catalog', 'set-plan', 'user', 'db', 'serve', 'worker', 'watch'];

describe('shelfwatch loads a command’s code only when that command runs', () => {
  let logDir: string;
  let runCount = 0;

  /** Runs bin/shelfwatch.js with `args`; answers its output and the project files it loaded. */
  async function runCli(
    args: string[],
  ): Promise<{ code: number | null; stdout: string; loaded: string[] }> {
    runCount += 1;
    const log = path.join(logDir, `imports-${runCount}.log`);
    const child = spawn(process.execPath, ['--import', RECORDER, 'bin/shelfwatch.js', ...args], {
      cwd: ROOT_DIR,
      env: { ...process.env, IMPORT_LOG: log },
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    const urls = (await readFile(log, 'utf8').catch(() => '')).split('\n');
    const loaded = urls
      .filter((url) => url.startsWith('file:') && !url.includes('/node_modules/'))
      .map((url) => path.relative(ROOT_DIR, fileURLToPath(url)));
    return { code, stdout, loaded: [...new Set(loaded)] };
  }

  beforeAll(async () => {
    logDir = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-cli-imports-'));
  });
  afterAll(async () => rm(logDir, { recursive: true, force: true }));

  it('--help lists every command while loading no server module but the command line', async () => {
    const result = await runCli(['--help']);
    expect(result.code).toBe(0);
    for (const name of COMMANDS) expect(result.stdout).toMatch(new RegExp(`^  ${name}\\b`, 'm'));
    expect(result.loaded.filter((file) => file.startsWith('server/'))).toEqual(['server/cli.ts']);
  });

  it('a group named on the command line is loaded with its real commands', async () => {
    for (const [group, subcommand] of [
      ['user', 'add'],
      ['db', 'backup'],
      ['watch', 'run'],
    ] as const) {
      const result = await runCli([group, '--help']);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(new RegExp(`^  ${subcommand}\\b`, 'm'));
      // `help <group>` names the group too.
      const viaHelp = await runCli(['help', group]);
      expect(viaHelp.stdout).toBe(result.stdout);
    }
  });

  it('each listed group shows the description its own module gives it', async () => {
    const top = await runCli(['--help']);
    for (const group of ['user', 'db', 'watch']) {
      const own = await runCli([group, '--help']);
      // The group's own help: "Usage: ...", a blank line, then its description.
      const description = own.stdout.split('\n')[2] ?? '';
      expect(description).not.toBe('');
      const listed = new RegExp(`^  ${group} +(.*(?:\\n {20,}.*)*)`, 'm').exec(top.stdout)?.[1];
      expect(listed?.replace(/\s+/g, ' ')).toBe(description);
    }
  });

  it('a command that is not given loads none of the others', async () => {
    const result = await runCli(['watch', 'products']);
    expect(result.code).toBe(0);
    expect(result.loaded).not.toContain('server/accounts/user-commands.ts');
    expect(result.loaded).not.toContain('server/backup/backup-commands.ts');
    expect(result.loaded).not.toContain('server/stack.ts');
  });
});
