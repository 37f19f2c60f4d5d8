import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FuseState, FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const rootDir = path.resolve(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);

type MacTarget = { target: string; arch: string[] };
type BuilderConfig = {
  appId: string;
  afterPack: string;
  beforeBuild: string;
  files: string[];
  mac: {
    minimumSystemVersion: string;
    hardenedRuntime: boolean;
    entitlements: string;
    entitlementsInherit: string;
    icon: string;
    target: MacTarget[];
  };
};

/** The parts of electron-builder's afterPack context that build/fuses.cjs reads. */
type PackContext = {
  electronPlatformName: string;
  arch: number;
  appOutDir: string;
  packager: { appInfo: { productFilename: string } };
};
type FusesModule = {
  FUSE_SETTINGS: Record<number, boolean>;
  applyFuses: (context: PackContext) => Promise<void>;
  fuseConfigFor: (context: PackContext) => { resetAdHocDarwinSignature: boolean };
};
const fuses = require(path.join(rootDir, 'build', 'fuses.cjs')) as FusesModule;
/** electron-builder's Arch enum values (builder-util): what afterPack's context.arch holds. */
const { Arch } = require('electron-builder') as { Arch: Record<'x64' | 'arm64', number> };

const config = parse(
  readFileSync(path.join(rootDir, 'electron-builder.yml'), 'utf8'),
) as BuilderConfig;

describe('macOS packaging', () => {
  it("passes electron-builder's own configuration schema", async () => {
    const { validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as {
      validateConfiguration: (
        config: unknown,
        logger: { isEnabled: boolean; add: () => void },
      ) => Promise<void>;
    };
    await expect(
      validateConfiguration(config, { isEnabled: false, add: () => undefined }),
    ).resolves.toBeUndefined();
    await expect(
      validateConfiguration(
        { ...config, mac: { ...config.mac, hardenedRuntim: true } },
        { isEnabled: false, add: () => undefined },
      ),
    ).rejects.toThrow(/Invalid configuration object/);
  });

  it('targets macOS 13 with a hardened runtime, one universal dmg and zip', () => {
    expect(config.mac.minimumSystemVersion).toBe('13.0');
    expect(config.mac.hardenedRuntime).toBe(true);
    for (const file of [
      config.mac.entitlements,
      config.mac.entitlementsInherit,
      config.mac.icon,
      config.afterPack,
    ]) {
      expect(existsSync(path.join(rootDir, file)), file).toBe(true);
    }
    expect(config.mac.target).toEqual([
      { target: 'dmg', arch: ['universal'] },
      { target: 'zip', arch: ['universal'] },
    ]);
    expect(config.files).toContain('dist/desktop/**');
  });

  it('flips the fuses of the security checklist', () => {
    expect(fuses.FUSE_SETTINGS).toEqual({
      [FuseV1Options.RunAsNode]: false,
      [FuseV1Options.EnableCookieEncryption]: true,
      [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
      [FuseV1Options.EnableNodeCliInspectArguments]: false,
      [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
      [FuseV1Options.OnlyLoadAppFromAsar]: true,
      [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
    });
  });

  it('grants the hardened runtime only JIT and outgoing network, no camera or microphone', () => {
    const plist = readFileSync(path.join(rootDir, config.mac.entitlements), 'utf8');
    const granted = [...plist.matchAll(/<key>([^<]+)<\/key>\s*<true\/>/g)].map((match) => match[1]);
    // Electron needs JIT only; unsigned executable memory is not among its required entitlements.
    expect(granted.sort()).toEqual([
      'com.apple.security.cs.allow-jit',
      'com.apple.security.network.client',
    ]);
    const keys = [...plist.matchAll(/<key>([^<]+)<\/key>/g)].map((match) => match[1]);
    expect(keys.filter((key) => /camera|microphone|audio-input/.test(key))).toEqual([]);
  });
  it('packs no node_modules: the bundles carry their dependencies', async () => {
    // electron-builder would otherwise copy every production dependency (the API server's) into
    // app.asar; a beforeBuild hook resolving to false turns that off.
    expect(existsSync(path.join(rootDir, config.beforeBuild))).toBe(true);
    const beforeBuild = require(path.join(rootDir, config.beforeBuild)) as () => Promise<boolean>;
    await expect(beforeBuild()).resolves.toBe(false);
    expect(config.files).toEqual(['dist/desktop/**', '!dist/desktop/**/*.map', 'package.json']);
  });

  it('flips the fuses on the packed binary electron-builder hands to afterPack', async () => {
    // A stand-in Electron Framework with the real fuse wire layout (sentinel, version 1, length,
    // one byte per fuse), where @electron/fuses looks for it inside a Mac app bundle.
    const appOutDir = await mkdtemp(path.join(tmpdir(), 'shelfwatch-fuses-'));
    try {
      const app = path.join(appOutDir, 'Shelfwatch.app', 'Contents');
      const framework = path.join(app, 'Frameworks', 'Electron Framework.framework');
      await mkdir(path.join(app, 'MacOS'), { recursive: true });
      await mkdir(framework, { recursive: true });
      await writeFile(path.join(app, 'MacOS', 'Shelfwatch'), '');
      const wire = Buffer.alloc(9, FuseState.ENABLE);
      wire[FuseV1Options.EnableEmbeddedAsarIntegrityValidation] = FuseState.DISABLE;
      wire[FuseV1Options.OnlyLoadAppFromAsar] = FuseState.DISABLE;
      await writeFile(
        path.join(framework, 'Electron Framework'),
        Buffer.concat([
          Buffer.alloc(64, 7),
          Buffer.from('dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX'),
          Buffer.from([1, wire.length]),
          wire,
          Buffer.alloc(64, 7),
        ]),
      );
      // x64: no ad-hoc re-signing (that runs `codesign`, which only exists on a Mac).
      await fuses.applyFuses({
        electronPlatformName: 'darwin',
        arch: Arch.x64,
        appOutDir,
        packager: { appInfo: { productFilename: 'Shelfwatch' } },
      });
      const flipped = (await getCurrentFuseWire(
        path.join(app, 'MacOS', 'Shelfwatch'),
      )) as unknown as Record<number, number>;
      const state = (on: boolean) => (on ? FuseState.ENABLE : FuseState.DISABLE);
      for (const [fuse, on] of Object.entries(fuses.FUSE_SETTINGS)) {
        expect(flipped[Number(fuse)], FuseV1Options[Number(fuse)]).toBe(state(on));
      }
      // Fuses we do not set keep Electron's value.
      expect(flipped[FuseV1Options.LoadBrowserProcessSpecificV8Snapshot]).toBe(FuseState.ENABLE);
    } finally {
      await rm(appOutDir, { recursive: true, force: true });
    }
  });

  it('resets the ad-hoc signature after flipping fuses on arm64 Macs only', () => {
    const context = (electronPlatformName: string, arch: number): PackContext => ({
      electronPlatformName,
      arch,
      appOutDir: '/tmp',
      packager: { appInfo: { productFilename: 'Shelfwatch' } },
    });
    expect(fuses.fuseConfigFor(context('darwin', Arch.arm64)).resetAdHocDarwinSignature).toBe(true);
    expect(fuses.fuseConfigFor(context('darwin', Arch.x64)).resetAdHocDarwinSignature).toBe(false);
    expect(fuses.fuseConfigFor(context('linux', Arch.arm64)).resetAdHocDarwinSignature).toBe(false);
  });
});
