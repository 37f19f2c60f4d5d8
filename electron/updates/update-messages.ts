import type { MenuItemConstructorOptions } from 'electron';

// What the app says about its updates: in the tray, in My Searches' status line and in the
// notification. Squirrel.Mac's own words ("Cannot update while running on a read-only
// volume. The application is on a read-only volume. Please move the application and try
// again...", error code 8) are for developers; a user reads what to do instead.

/** Where the update stands, for the tray, the status line and the notification. */
export type UpdateState = {
  /**
   * `ready`: downloaded and handed to Squirrel.Mac, which can install it. `blocked`: downloaded,
   * but Squirrel.Mac cannot replace the app where it runs (a disk image, or Downloads under App
   * Translocation). `failed`: "Restart to Update" did not install it. `error`: a check or a
   * download failed (the feed unreachable, a checksum refused).
   */
  status:
    'disabled' | 'idle' | 'checking' | 'downloading' | 'ready' | 'blocked' | 'failed' | 'error';
  /** The version found (downloading, ready, blocked, failed). */
  version: string | null;
  /** Why it is blocked or failed, in words a user can act on. */
  message: string | null;
};

/** What the tray's update rows do. */
export type UpdateMenuActions = {
  restart: () => void;
  /** Null when the app is already in Applications (moving would not help). */
  moveToApplications: (() => void) | null;
};

/** Longest reason shown in a menu row; the status line has the whole sentence. */
const MAX_ROW_LENGTH = 80;

/** True for Squirrel.Mac's refusal to replace an app on a read-only (or translocated) volume. */
export function isReadOnlyVolumeError(error: unknown): boolean {
  return /read-only volume/i.test(error instanceof Error ? error.message : String(error));
}

/** Why a downloaded version cannot be installed where the app runs. */
export function describeBlockedUpdate(version: string | null): string {
  return `Shelfwatch can't update itself from a disk image or the Downloads folder. Move it to the Applications folder to install version ${version ?? 'the new version'}.`;
}

/** A failed check or download in words: a refused checksum reads differently from no network. */
export function describeUpdateError(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  if (/sha512|checksum/i.test(text))
    return 'The downloaded update did not match its checksum and was discarded.';
  if (/ENOTFOUND|ECONNREFUSED|ETIMEDOUT|net::/i.test(text))
    return 'The update server could not be reached.';
  return `The update could not be downloaded: ${firstLine(text)}`;
}

/** Why "Restart to Update" did not install the version. */
export function describeInstallFailure(version: string | null, error: unknown): string {
  const reason = firstLine(error instanceof Error ? error.message : String(error));
  return `Version ${version ?? 'the new version'} couldn't be installed: ${reason}`;
}

/** The update's rows in the tray menu: restart, or why not and the move that fixes it. */
export function buildUpdateMenuItems(
  state: UpdateState,
  actions: UpdateMenuActions,
): MenuItemConstructorOptions[] {
  const version = state.version ?? 'new version';
  const moveItems: MenuItemConstructorOptions[] =
    actions.moveToApplications === null
      ? []
      : [{ label: 'Move to Applications…', click: actions.moveToApplications }];
  switch (state.status) {
    case 'ready':
      return [{ label: `Restart to Update (${version})`, click: actions.restart }];
    case 'blocked':
      return [
        { label: `Update ${version} needs Shelfwatch in Applications`, enabled: false },
        ...moveItems,
      ];
    case 'failed':
      return [{ label: `Update ${version} couldn’t be installed`, enabled: false }, ...moveItems];
    case 'error':
      return [
        { label: shorten(`Updates: ${state.message ?? 'the last check failed'}`), enabled: false },
      ];
    default:
      return [];
  }
}

/** The sentence My Searches shows while an update cannot be installed; null otherwise. */
export function describeUpdateProblem(state: UpdateState): string | null {
  return state.status === 'blocked' || state.status === 'failed' ? state.message : null;
}

/** The notification for a version that is ready, or that cannot be installed here. */
export function formatUpdateNotification(state: UpdateState): { title: string; body: string } {
  const version = state.version ?? '';
  if (state.status === 'blocked') {
    return {
      title: `Shelfwatch can't install version ${version}`,
      body: 'It can only update itself from the Applications folder. Click to move it there.',
    };
  }
  return {
    title: `Shelfwatch ${version} is ready`,
    body: 'Click to restart Shelfwatch and install it, or choose "Restart to Update" in the menu bar.',
  };
}

function firstLine(text: string): string {
  return text.split('\n')[0]?.trim() ?? '';
}

function shorten(text: string): string {
  return text.length > MAX_ROW_LENGTH ? `${text.slice(0, MAX_ROW_LENGTH - 1).trimEnd()}…` : text;
}
