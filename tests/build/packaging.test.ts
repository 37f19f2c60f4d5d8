import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const rootDir = path.resolve(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);

type MacTarget = { target: string; arch: string[] };
type BuilderConfig = {
  appId: string;
  afterPack: string;
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

  it('targets macOS 13 with a hardened runtime, dmg and zip for both architectures', () => {
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
      { target: 'dmg', arch: ['arm64', 'x64'] },
      { target: 'zip', arch: ['arm64', 'x64'] },
    ]);
    expect(config.files).toContain('dist/desktop/**');
  });

  it('flips the fuses of the security checklist', () => {
    const { FUSE_SETTINGS } = require(path.join(rootDir, 'build', 'fuses.cjs')) as {
      FUSE_SETTINGS: Record<number, boolean>;
    };
    const { FuseV1Options } = require('@electron/fuses') as {
      FuseV1Options: Record<string, number>;
    };
    expect(FUSE_SETTINGS).toEqual({
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
    expect(granted.sort()).toEqual([
      'com.apple.security.cs.allow-jit',
      'com.apple.security.cs.allow-unsigned-executable-memory',
      'com.apple.security.network.client',
    ]);
    const keys = [...plist.matchAll(/<key>([^<]+)<\/key>/g)].map((match) => match[1]);
    expect(keys.filter((key) => /camera|microphone|audio-input/.test(key))).toEqual([]);
  });
});
