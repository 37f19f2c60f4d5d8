import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { useHost } from '#renderer/host/host-context.tsx';

// The app's first-run step for notifications. macOS asks the user to allow an app's
// notifications the first time it posts one; asked at the first stock alert, the question
// would arrive with (and hold back) the very alert the user installed the app for. So the
// first screen offers a test notification: the question comes now, while the user is here.

/** What the first-run step and the settings screen send. */
export const TEST_NOTIFICATION = {
  title: 'Shelfwatch notifications are on',
  body: 'This is how Shelfwatch tells you a model you watch is in stock.',
};

/** Remembered in the app's own storage (app:// origin) once the step is done or dismissed. */
const DONE_KEY = 'shelfwatch_notification_setup_done';

function isDone(): boolean {
  try {
    return window.localStorage.getItem(DONE_KEY) === '1';
  } catch {
    return false;
  }
}

function markDone(): void {
  try {
    window.localStorage.setItem(DONE_KEY, '1');
  } catch {
    // Storage refused: the step shows again next time, which is harmless.
  }
}

/** The one-time "turn on notifications" step on My Searches in the macOS app. */
export function DesktopNotificationSetup() {
  const host = useHost();
  const [isHidden, setIsHidden] = useState(isDone);
  if (isHidden) return null;
  const finish = () => {
    markDone();
    setIsHidden(true);
  };
  const sendTest = () => {
    host.showNotification(TEST_NOTIFICATION).catch((error: unknown) => {
      console.error('The test notification could not be sent', error);
    });
    finish();
  };
  return (
    <Alert variant="info" dismissible onClose={finish}>
      <p className="mb-2">
        Shelfwatch tells you about stock with macOS notifications. Send a test now so macOS can ask
        whether to allow them, before the first alert counts.
      </p>
      <Button size="sm" onClick={sendTest}>
        Send a test notification
      </Button>
    </Alert>
  );
}
