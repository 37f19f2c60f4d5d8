// Electron fuses for the packaged app (Electron's security checklist): no running as plain
// Node, no NODE_OPTIONS or inspector flags, encrypted cookies, and the app only loads from
// its own integrity-checked ASAR.
const path = require('node:path');
const { flipFuses, FuseVersion, FuseV1Options } = require('@electron/fuses');
// electron-builder's own Arch enum: the afterPack context's `arch` is one of its values.
const { Arch } = require('electron-builder');

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
  if (isMacContext(context)) {
    return path.join(context.appOutDir, `${productName}.app`, 'Contents', 'MacOS', productName);
  }
  return path.join(
    context.appOutDir,
    context.electronPlatformName === 'win32' ? `${productName}.exe` : productName,
  );
}

/** Whether the afterPack context packs for macOS (a Developer ID or a Mac App Store build). */
function isMacContext(context) {
  return context.electronPlatformName === 'darwin' || context.electronPlatformName === 'mas';
}

/**
 * The full flipFuses options for one packed app. Flipping fuses edits the binary and so breaks
 * its ad-hoc signature; arm64 (and universal) macOS refuses to run an unsigned binary, so the
 * fuses docs require resetting that signature there. x64 does not need it, and electron-builder
 * signs every Mac build properly afterwards anyway.
 */
function fuseConfigFor(context) {
  const needsAdHocSignature =
    isMacContext(context) && (context.arch === Arch.arm64 || context.arch === Arch.universal);
  return {
    version: FuseVersion.V1,
    resetAdHocDarwinSignature: needsAdHocSignature,
    ...FUSE_SETTINGS,
  };
}

/** Flips the fuses on the binary electron-builder has just packed (before it signs the app). */
async function applyFuses(context) {
  await flipFuses(findElectronBinary(context), fuseConfigFor(context));
}

module.exports = { FUSE_SETTINGS, applyFuses, findElectronBinary, fuseConfigFor };
