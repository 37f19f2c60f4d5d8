// Squirrel.Mac as Electron's native autoUpdater exposes it, for the recording fake of
// Electron (fake-electron.ts). No kinder than the real one: it fetches the JSON feed
// electron-updater's local proxy serves and downloads the zip before it reports the update;
// it refuses to update an app on a read-only volume (run from the disk image, or translocated
// out of Downloads) with its own error; its quitAndInstall emits before-quit-for-update and
// closes every window before the app quits, and reports an error instead of quitting when it
// holds no update or cannot install (no write permission).
import { EventEmitter } from 'node:events';

/**
 * Squirrel.Mac's refusal on a read-only volume, as Electron reports it (error.localizedDescription,
 * the failure reason and the recovery suggestion joined; code 8), seen in public crash reports.
 */
export const READ_ONLY_VOLUME_ERROR =
  "Cannot update while running on a read-only volume. The application is on a read-only volume. Please move the application and try again. If you're on macOS Sierra or later, you'll need to move the application out of the Downloads directory. See https://github.com/Squirrel/Squirrel.Mac/issues/182 for more information.";
/** What Electron's autoUpdater.quitAndInstall reports when Squirrel holds no update. */
export const NO_UPDATE_ERROR = "No update available, can't quit and install";

/** What the fake Squirrel needs of the app around it. */
export type SquirrelHost = {
  /** False for an app run from the disk image or from Downloads (translocated). */
  isOnWritableVolume: () => boolean;
  /** Set: installing fails with this error (e.g. ShipIt cannot write the bundle). */
  installError: () => string | undefined;
  /** Closes every window as Electron does before an update's quit; false if one refused. */
  closeAllWindows: () => boolean;
  /** app.quit(); false if it was cancelled. */
  quitApp: () => boolean;
  /** The app quit to install: the harness reports it. */
  onInstalled: () => void;
};

/** Creates the fake native updater. */
export function createFakeSquirrel(host: SquirrelHost) {
  class FakeNativeUpdater extends EventEmitter {
    private feed: { url: string; headers?: Record<string, string> } | null = null;
    private isDownloaded = false;
    setFeedURL(feed: { url: string; headers?: Record<string, string> }) {
      this.feed = feed;
    }
    getFeedURL() {
      return this.feed?.url ?? '';
    }
    private fail(message: string) {
      this.emit('error', Object.assign(new Error(message), { code: 8 }));
    }
    checkForUpdates() {
      const feed = this.feed;
      if (feed === null) {
        this.fail('Update check failed. The server sent an invalid response.');
        return;
      }
      this.emit('checking-for-update');
      void (async () => {
        try {
          const answer = await fetch(feed.url, { headers: feed.headers });
          if (!answer.ok) throw new Error(`Squirrel: feed answered HTTP ${answer.status}`);
          const { url } = (await answer.json()) as { url: string };
          // Squirrel checks where the app lives before it downloads anything.
          if (!host.isOnWritableVolume()) {
            this.fail(READ_ONLY_VOLUME_ERROR);
            return;
          }
          this.emit('update-available');
          const zip = await fetch(url);
          if (!zip.ok) throw new Error(`Squirrel: download answered HTTP ${zip.status}`);
          await zip.arrayBuffer();
          this.isDownloaded = true;
          this.emit('update-downloaded', {}, '', '', new Date(), feed.url);
        } catch (error) {
          this.emit('error', error);
        }
      })();
    }
    quitAndInstall() {
      this.emit('before-quit-for-update');
      if (!host.closeAllWindows()) return;
      // The windows are gone either way; only a successful install goes on to quit.
      if (!this.isDownloaded) {
        setImmediate(() => this.fail(NO_UPDATE_ERROR));
        return;
      }
      const installError = host.installError();
      if (installError !== undefined) {
        setImmediate(() => this.fail(installError));
        return;
      }
      if (host.quitApp()) host.onInstalled();
    }
  }
  return new FakeNativeUpdater();
}
