import type { App, Dialog } from 'electron';
import type { AppStore } from '#electron/store/app-store.ts';

// An app run from the mounted DMG or from Downloads cannot update itself (Squirrel.Mac replaces
// the bundle where it is, and a disk image is read-only; a quarantined app in Downloads is
// translocated to a random read-only path). So a packed app outside /Applications offers, once,
// to move itself there; Electron's moveToApplicationsFolder relaunches it from the new place.

/** Asks once to move the app to Applications; remembers a "Not Now". */
export async function offerMoveToApplications(deps: {
  app: Pick<App, 'isInApplicationsFolder' | 'moveToApplicationsFolder'>;
  dialog: Pick<Dialog, 'showMessageBox'>;
  store: Pick<AppStore, 'get' | 'set'>;
  log: (message: string, error?: unknown) => void;
}): Promise<boolean> {
  const { app, dialog, store } = deps;
  if (app.isInApplicationsFolder()) return false;
  if (store.get('prompts').move_to_applications_declined) return false;
  const { response } = await dialog.showMessageBox({
    type: 'question',
    buttons: ['Move to Applications', 'Not Now'],
    defaultId: 0,
    cancelId: 1,
    message: 'Move Shelfwatch to your Applications folder?',
    detail:
      'Shelfwatch can only install its updates from the Applications folder. It will restart from there.',
  });
  if (response !== 0) {
    store.set('prompts', { ...store.get('prompts'), move_to_applications_declined: true });
    return false;
  }
  try {
    return app.moveToApplicationsFolder();
  } catch (error) {
    deps.log('Could not move to Applications', error);
    return false;
  }
}
