#!/usr/bin/env bash
# Verifies a packed, signed and notarized Shelfwatch.app the way a user's Mac will judge it,
# before anything is published: bash build/verify-mac-app.sh release/mac-universal/Shelfwatch.app
# Needs macOS (codesign, spctl, xcrun) and the project's node_modules (@electron/fuses, asar).
set -euo pipefail
app="${1:?usage: verify-mac-app.sh path/to/Shelfwatch.app}"
cd "$(dirname "$0")/.."

echo "== Signature (deep, strict)"
codesign --verify --deep --strict --verbose=2 "$app"
codesign --display --verbose=2 "$app" 2>&1 | grep -E '^(Authority|TeamIdentifier|Runtime)' || true
if ! codesign --display --verbose=2 "$app" 2>&1 | grep -q 'Authority=Developer ID Application'; then
  echo "Not signed with a Developer ID Application identity" >&2
  exit 1
fi

echo "== Entitlements (allow-jit and network.client only)"
entitlements="$(codesign --display --entitlements - --xml "$app" 2>/dev/null)"
for unwanted in allow-unsigned-executable-memory disable-library-validation disable-executable-page-protection; do
  if grep -q "com.apple.security.cs.$unwanted" <<<"$entitlements"; then
    echo "The app is signed with com.apple.security.cs.$unwanted" >&2
    exit 1
  fi
done

echo "== Gatekeeper"
spctl --assess --type execute --verbose=4 "$app"

echo "== Notarization ticket stapled"
xcrun stapler validate "$app"

echo "== Universal binary"
binary="$app/Contents/MacOS/Shelfwatch"
lipo -archs "$binary" | tee /dev/stderr | grep -q 'x86_64 arm64\|arm64 x86_64'

echo "== Fuses"
fuses="$(npx --no-install @electron/fuses read --app "$app")"
echo "$fuses"
for expected in 'RunAsNode is Disabled' 'EnableNodeOptionsEnvironmentVariable is Disabled' \
  'EnableNodeCliInspectArguments is Disabled' 'EnableEmbeddedAsarIntegrityValidation is Enabled' \
  'OnlyLoadAppFromAsar is Enabled'; do
  if ! grep -q "$expected" <<<"$fuses"; then
    echo "Fuse not as built: expected '$expected'" >&2
    exit 1
  fi
done

echo "== What app.asar holds"
listing="$(npx --no-install @electron/asar list "$app/Contents/Resources/app.asar")"
for needed in /dist/desktop/main.js /dist/desktop/preload.cjs /dist/desktop/renderer/index.html \
  /dist/desktop/tray/trayTemplate.png /package.json; do
  grep -qx "$needed" <<<"$listing" || { echo "app.asar lacks $needed" >&2; exit 1; }
done
if grep -q '^/node_modules/' <<<"$listing"; then
  echo "app.asar carries node_modules (the bundles should carry their dependencies)" >&2
  exit 1
fi
if grep -q '\.map$' <<<"$listing"; then
  echo "app.asar carries source maps" >&2
  exit 1
fi

echo "== Update feed written into the app"
feed="$app/Contents/Resources/app-update.yml"
cat "$feed"
url="$(sed -n 's/^url: *//p' "$feed" | tr -d "'\"")"
if [ -z "$url" ] || [ "$url" != "${SHELFWATCH_UPDATE_URL:-$url}" ] || [[ "$url" != https://* ]]; then
  echo "The packed update URL '$url' is empty, not https, or not SHELFWATCH_UPDATE_URL" >&2
  exit 1
fi
echo "The app verifies."
