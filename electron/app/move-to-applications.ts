import type { App, Dialog } from 'electron';
import type { AppStore } from '#electron/store/app-store.ts';

// An app run from the mounted DMG or from Downloads cannot update itself (Squirrel.Mac replaces
// the bundle where it is, and a disk image is read-only; a quarantined app in Downloads is
// translocated to a random read-only path). So a packed app outside /Applications offers to
// move itself there; Electron's moveToApplicationsFolder relaunches it from the new place.
// "Not Now" at launch is remembered, but not forever: each new version that cannot be
// installed asks once more (that is when moving pays off), and the user can always ask from
// the menu bar or the update notification.

/** Why the offer is made: at launch, for a version that cannot be installed, or on request. */
export type MoveOfferReason =
  | { kind: 'launch' }
  | { kind: 'update'; version: string }
  | { kind: 'asked'; version: string | null };

/** What the offer needs. */
export type MoveOfferDeps = {
  app: Pick<App, 'isInApplicationsFolder' | 'moveToApplicationsFolder'>;
  dialog: Pick<Dialog, 'showMessageBox'>;
  store: Pick<AppStore, 'get' | 'set'>;
  log: (message: string, error?: unknown) => void;
};

/** True when this reason's offer was already answered (launch) or made (this version). */
function isAlreadyOffered(store: MoveOfferDeps['store'], reason: MoveOfferReason): boolean {
  const prompts = store.get('prompts');
  if (reason.kind === 'launch') return prompts.move_to_applications_declined;
  if (reason.kind === 'update') return prompts.move_offered_version === reason.version;
  return false;
}

/** The dialog's words for a reason. */
function describeOffer(reason: MoveOfferReason): { message: string; detail: string } {
  if (reason.kind === 'launch') {
    return {
      message: 'Move Shelfwatch to your Applications folder?',
      detail:
        'Shelfwatch can only install its updates from the Applications folder. It will restart from there.',
    };
  }
  const version = reason.version === null ? 'A new version' : `Version ${reason.version}`;
  return {
    message: `${version} of Shelfwatch can't be installed here`,
    detail:
      'Shelfwatch is running from a disk image or the Downloads folder, where macOS does not let it replace itself. Move it to the Applications folder to install updates; it will restart from there.',
  };
}

/** Offers to move the app to Applications; answers whether it moved (and is relaunching). */
export async function offerMoveToApplications(
  deps: MoveOfferDeps,
  reason: MoveOfferReason,
): Promise<boolean> {
  const { app, dialog, store } = deps;
  if (app.isInApplicationsFolder()) return false;
  if (isAlreadyOffered(store, reason)) return false;
  if (reason.kind === 'update') {
    store.set('prompts', { ...store.get('prompts'), move_offered_version: reason.version });
  }
  const { response } = await dialog.showMessageBox({
    type: reason.kind === 'launch' ? 'question' : 'warning',
    buttons: ['Move to Applications', 'Not Now'],
    defaultId: 0,
    cancelId: 1,
    ...describeOffer(reason),
  });
  if (response !== 0) {
    if (reason.kind === 'launch') {
      store.set('prompts', { ...store.get('prompts'), move_to_applications_declined: true });
    }
    return false;
  }
  try {
    return app.moveToApplicationsFolder();
  } catch (error) {
    deps.log('Could not move to Applications', error);
    return false;
  }
}
