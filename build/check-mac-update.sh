#!/usr/bin/env bash
# Proves on a Mac that a release can update itself: builds version N (package.json) and N+1
# (patch bump) signed with the same identity, serves N+1's files from a local feed, installs
# N into a scratch Applications folder, starts it with that feed, waits until it has
# downloaded N+1, quits it (Squirrel.Mac installs on quit: autoInstallOnAppQuit) and checks
# the installed bundle is N+1 and still passes codesign.
# Needs macOS, CSC_LINK and CSC_KEY_PASSWORD (a Developer ID Application identity).
set -euo pipefail
cd "$(dirname "$0")/.."
: "${CSC_LINK:?CSC_LINK (Developer ID Application .p12, base64) is required}"
: "${CSC_KEY_PASSWORD:?CSC_KEY_PASSWORD is required}"

port=8765
feed_url="http://127.0.0.1:${port}/"
work="$(mktemp -d)"
cp package.json "$work/package.json.orig"
restore() {
  cp "$work/package.json.orig" package.json
  [ -n "${server_pid:-}" ] && kill "$server_pid" 2>/dev/null || true
  pkill -x Shelfwatch 2>/dev/null || true
}
trap restore EXIT

version_n="$(node -p "require('./package.json').version")"
npm run build:desktop
build() {
  # Signed, not notarized (nothing leaves the runner); the feed is the local one.
  SHELFWATCH_UPDATE_URL="$feed_url" npx electron-builder --mac zip --universal --publish never \
    -c.mac.notarize=false -c.directories.output="$1"
}
build "$work/n"
npm version patch --no-git-tag-version --ignore-scripts >/dev/null
version_next="$(node -p "require('./package.json').version")"
build "$work/next"
echo "Built ${version_n} and ${version_next}"

(cd "$work/next" && python3 -m http.server "$port" --bind 127.0.0.1 >/dev/null 2>&1) &
server_pid=$!

apps="$work/Applications"
mkdir -p "$apps"
ditto -x -k "$work/n/Shelfwatch-${version_n}-universal.zip" "$apps"
app="$apps/Shelfwatch.app"
plist_version() { /usr/libexec/PlistBuddy -c 'Print :CFBundleShortVersionString' "$app/Contents/Info.plist"; }
[ "$(plist_version)" = "$version_n" ]

home="$work/home"
mkdir -p "$home"
# A release reads no SHELFWATCH_* variable: the feed is the one packed into it (app-update.yml).
HOME="$home" "$app/Contents/MacOS/Shelfwatch" >"$work/app.log" 2>&1 &
app_pid=$!

# electron-updater keeps the verified download under ~/Library/Caches/<updaterCacheDirName>
# (Node's home: $HOME); the app's log (electron-log, app.getPath('logs'): macOS's own idea of
# the home folder, which may ignore $HOME) says "Update ready" once Squirrel.Mac holds it too.
pending="$home/Library/Caches/shelfwatch-updater/pending"
app_logs=("$home/Library/Logs/Shelfwatch/main.log" "$HOME/Library/Logs/Shelfwatch/main.log")
for _ in $(seq 1 120); do
  if ls "$pending"/*.zip >/dev/null 2>&1 && grep -qs 'Update ready' "${app_logs[@]}"; then
    break
  fi
  sleep 2
done
ls "$pending"/*.zip >/dev/null
if ! grep -hs 'Update ready' "${app_logs[@]}"; then
  echo "The app never reported the update ready for Squirrel.Mac:" >&2
  cat "${app_logs[@]}" "$work/app.log" >&2 2>/dev/null || true
  exit 1
fi
# Quit as a user does (an Apple event: app.quit, then Squirrel installs on the way out).
osascript -e 'tell application id "app.shelfwatch.desktop" to quit' || kill -TERM "$app_pid"
wait "$app_pid" || true
# ShipIt replaces the bundle after the app has quit.
for _ in $(seq 1 60); do
  [ "$(plist_version)" = "$version_next" ] && break
  sleep 2
done
echo "Installed version: $(plist_version)"
[ "$(plist_version)" = "$version_next" ]
codesign --verify --deep --strict "$app"
echo "Updated ${version_n} -> ${version_next}."
