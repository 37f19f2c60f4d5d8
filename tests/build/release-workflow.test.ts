// The release workflow (.github/workflows/desktop.yml) and electron-builder.yml, read as
// GitHub and electron-builder read them: a release runs the tests on a supported macOS runner
// and cannot ship unsigned or with an empty update URL. The workflow's guard step is run here
// with bash, so what is tested is the script GitHub runs, not a copy of it.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const rootDir = path.resolve(import.meta.dirname, '..', '..');

type Step = { name?: string; run?: string; uses?: string; env?: Record<string, string> };
type Job = { 'runs-on': string; needs?: string[]; if?: string; steps: Step[] };
type Workflow = { on: Record<string, unknown>; jobs: Record<string, Job> };

const workflowText = readFileSync(
  path.join(rootDir, '.github', 'workflows', 'desktop.yml'),
  'utf8',
);
const workflow = parse(workflowText) as Workflow;
const builder = parse(readFileSync(path.join(rootDir, 'electron-builder.yml'), 'utf8')) as {
  forceCodeSigning?: boolean;
  publish: { provider: string; url: string };
  mac: { minimumSystemVersion: string; target: { target: string; arch: string[] }[] };
};

/** GitHub's hosted macOS images as of November 2026 (macos-14 was retired on 2 November). */
const SUPPORTED_MAC_IMAGES = ['macos-15', 'macos-15-intel', 'macos-26'];

const releaseJob = workflow.jobs.release;
const guardIndex = releaseJob.steps.findIndex(
  (step) => step.env?.SHELFWATCH_UPDATE_URL !== undefined,
);
const packIndex = releaseJob.steps.findIndex(
  (step) => step.run?.includes('electron-builder') === true,
);
const guard = releaseJob.steps[guardIndex];

/** Runs the workflow's guard step with bash and the given environment; answers its exit code. */
function runGuard(env: Record<string, string | undefined>): { status: number; stderr: string } {
  const result = spawnSync('bash', ['-e', '-c', guard?.run ?? 'exit 99'], {
    env: { PATH: process.env.PATH, ...env },
    encoding: 'utf8',
  });
  return { status: result.status ?? -1, stderr: result.stderr };
}

const COMPLETE = {
  CSC_LINK: 'MIIbase64certificate',
  CSC_KEY_PASSWORD: 'secret',
  APPLE_ID: 'release@lanternapps.dev',
  APPLE_APP_SPECIFIC_PASSWORD: 'abcd-efgh-ijkl-mnop',
  APPLE_TEAM_ID: 'ABCDE12345',
  SHELFWATCH_UPDATE_URL: 'https://downloads.shelfwatch.app/mac/',
};

describe('the macOS release workflow', () => {
  it('runs every job on a supported hosted macOS image, never a retired one', () => {
    const images = Object.values(workflow.jobs).map((job) => job['runs-on']);
    expect(images.length).toBeGreaterThanOrEqual(4);
    for (const image of images) expect(SUPPORTED_MAC_IMAGES).toContain(image);
    expect(images.every((image) => image === 'macos-15')).toBe(true);
    expect(workflowText).not.toMatch(/macos-(1[0-4]|latest)\b/);
  });

  it('runs typecheck, lint and the whole test suite on the Mac before releasing', () => {
    const runs = workflow.jobs.test.steps.flatMap((step) =>
      step.run === undefined ? [] : [step.run],
    );
    expect(runs).toEqual(expect.arrayContaining(['npm run typecheck', 'npm run lint', 'npm test']));
    expect(releaseJob.needs).toEqual(expect.arrayContaining(['test', 'smoke', 'update']));
    expect(workflow.jobs.smoke.steps.some((step) => step.run?.includes('mac-smoke.test.ts'))).toBe(
      true,
    );
    expect(
      workflow.jobs.update.steps.some((step) => step.run?.includes('build/check-mac-update.sh')),
    ).toBe(true);
  });

  it('checks identity and update URL before packing, with the values the pack step uses', () => {
    expect(guardIndex).toBeGreaterThanOrEqual(0);
    expect(packIndex).toBeGreaterThan(guardIndex);
    const pack = releaseJob.steps[packIndex];
    for (const name of ['CSC_LINK', 'CSC_KEY_PASSWORD', 'SHELFWATCH_UPDATE_URL'] as const) {
      expect(guard?.env?.[name], name).toBe(pack?.env?.[name]);
    }
    expect(pack?.env?.SHELFWATCH_UPDATE_URL).toBe('${{ vars.SHELFWATCH_UPDATE_URL }}');
    expect(pack?.run).toContain('--universal');
  });

  it('lets a complete release through', () => {
    expect(runGuard(COMPLETE)).toMatchObject({ status: 0 });
  });

  it('fails on an empty SHELFWATCH_UPDATE_URL, as GitHub passes for an unset variable', () => {
    const result = runGuard({ ...COMPLETE, SHELFWATCH_UPDATE_URL: '' });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('SHELFWATCH_UPDATE_URL');
    expect(runGuard({ ...COMPLETE, SHELFWATCH_UPDATE_URL: undefined }).status).not.toBe(0);
    expect(
      runGuard({ ...COMPLETE, SHELFWATCH_UPDATE_URL: 'http://downloads.example/' }).status,
    ).not.toBe(0);
  });

  it('fails on a missing or empty signing identity', () => {
    for (const name of ['CSC_LINK', 'CSC_KEY_PASSWORD'] as const) {
      const empty = runGuard({ ...COMPLETE, [name]: '' });
      expect(empty.status, name).not.toBe(0);
      expect(empty.stderr).toContain(name);
      expect(runGuard({ ...COMPLETE, [name]: undefined }).status, name).not.toBe(0);
    }
  });

  it('verifies the signed artifact before uploading it', () => {
    const verifyIndex = releaseJob.steps.findIndex((step) =>
      step.run?.includes('build/verify-mac-app.sh'),
    );
    const uploadIndex = releaseJob.steps.findIndex((step) =>
      step.uses?.startsWith('actions/upload-artifact'),
    );
    expect(verifyIndex).toBeGreaterThan(packIndex);
    expect(uploadIndex).toBeGreaterThan(verifyIndex);
    const script = readFileSync(path.join(rootDir, 'build', 'verify-mac-app.sh'), 'utf8');
    for (const check of [
      'codesign --verify --deep --strict',
      'spctl --assess --type execute',
      'xcrun stapler validate',
      '@electron/fuses read',
      '@electron/asar list',
    ]) {
      expect(script, check).toContain(check);
    }
  });
});

describe('electron-builder.yml for a release', () => {
  it('refuses to pack without a signing identity (forceCodeSigning)', () => {
    expect(builder.forceCodeSigning).toBe(true);
  });

  it('writes the update feed from SHELFWATCH_UPDATE_URL and builds universal for macOS 13', () => {
    expect(builder.publish).toEqual({ provider: 'generic', url: '${env.SHELFWATCH_UPDATE_URL}' });
    expect(builder.mac.minimumSystemVersion).toBe('13.0');
    for (const target of builder.mac.target) expect(target.arch).toEqual(['universal']);
  });
});
