// Electron fuses for the packaged app (Electron's security checklist): no running as plain
// Node, no NODE_OPTIONS or inspector flags, encrypted cookies, and the app only loads from
// its own integrity-checked ASAR.
const path = require('node:path');
const { flipFuses, FuseVersion, FuseV1Options } = require('@electron/fuses');

/** The fuse settings, also read by tests/build/packaging.test.ts. */
const FUSE_SETTINGS = {
  [FuseV1Options.RunAsNode]: false,
  [FuseV1Options.EnableCookieEncryption]: true,
  [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
  [FuseV1Options.EnableNodeCliInspectArguments]: false,
  [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
  [FuseV1Options.OnlyLoadAppFromAsar]: true,
  [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
};

/** The Electron binary inside the packed app of an electron-builder afterPack context. */
function findElectronBinary(context) {
  const productName = context.packager.appInfo.productFilename;
  if (context.electronPlatformName === 'darwin' || context.electronPlatformName === 'mas') {
    return path.join(context.appOutDir, `${productName}.app`, 'Contents', 'MacOS', productName);
  }
  return path.join(
    context.appOutDir,
    context.electronPlatformName === 'win32' ? `${productName}.exe` : productName,
  );
}

/** Flips the fuses; on macOS the ad-hoc signature is reset so arm64 binaries still launch before signing. */
async function applyFuses(context) {
  const isMac = context.electronPlatformName === 'darwin' || context.electronPlatformName === 'mas';
  await flipFuses(findElectronBinary(context), {
    version: FuseVersion.V1,
    resetAdHocDarwinSignature: isMac,
    ...FUSE_SETTINGS,
  });
}

module.exports = { FUSE_SETTINGS, applyFuses, findElectronBinary };
