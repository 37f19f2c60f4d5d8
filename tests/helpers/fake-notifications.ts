// Notifications for the recording fake of Electron (fake-electron.ts): posted through
// UNUserNotificationCenter since Electron 44, so macOS can refuse them ('failed', nothing
// shown), and those left in Notification Center come back from getHistory() after a relaunch;
// a click that launched the app arrives on one of those a moment after the app asks for them.
import { EventEmitter } from 'node:events';

/** A notification still in Notification Center whose click launched the app. */
export type LaunchNotification = { id: string; title: string; body: string; actionIndex?: number };

/** What the fake reports about notifications. */
export type NotificationEvent =
  | {
      type: 'notification';
      id: number;
      title: string;
      body: string;
      notificationId?: string;
      groupId?: string;
      actions: string[];
    }
  | { type: 'notification-failed'; id: number; error: string };

/** Creates the Notification class and the controls over what it showed. */
export function createFakeNotifications(
  report: (event: NotificationEvent) => void,
  options: { notificationError?: string; launchNotification?: LaunchNotification },
) {
  let nextNotificationId = 1;
  const notifications = new Map<number, EventEmitter>();
  let notificationError = options.notificationError;
  const transport = { send: report };

  type NotificationOptions = {
    title: string;
    body: string;
    id?: string;
    groupId?: string;
    actions?: { type: string; text?: string }[];
  };
  class FakeNotification extends EventEmitter {
    /** The harness's own number for the notification, which tests click by. */
    readonly harnessId = nextNotificationId++;
    /** Electron's `id`: the identifier given at creation, else one macOS makes up. */
    readonly id: string;
    constructor(readonly options: NotificationOptions) {
      super();
      this.id = options.id ?? `generated-${this.harnessId}`;
    }
    static isSupported() {
      return true;
    }
    /**
     * Delivered notifications the system still shows (an unsigned app has none). A click that
     * launched the app is delivered on its notification once the app has it back, a moment
     * after: an app that reconnects late, or never, loses it.
     */
    static getHistory() {
      const launch = options.launchNotification;
      if (launch === undefined) return Promise.resolve([] as FakeNotification[]);
      const delivered = new FakeNotification({
        title: launch.title,
        body: launch.body,
        id: launch.id,
      });
      notifications.set(delivered.harnessId, delivered);
      setImmediate(() => {
        if (launch.actionIndex === undefined) delivered.emit('click');
        else {
          const { actionIndex } = launch;
          delivered.emit('action', { preventDefault: () => undefined, actionIndex }, actionIndex);
        }
      });
      return Promise.resolve([delivered]);
    }
    show() {
      // Electron 44+ posts through UNUserNotificationCenter: refused, it reports 'failed'
      // asynchronously and shows nothing.
      if (notificationError !== undefined) {
        const error = notificationError;
        setImmediate(() => {
          transport.send({ type: 'notification-failed', id: this.harnessId, error });
          this.emit('failed', { preventDefault: () => undefined }, error);
        });
        return;
      }
      notifications.set(this.harnessId, this);
      transport.send({
        type: 'notification',
        id: this.harnessId,
        title: this.options.title,
        body: this.options.body,
        notificationId: this.options.id,
        groupId: this.options.groupId,
        actions: (this.options.actions ?? []).map((action) => action.text ?? ''),
      });
      setImmediate(() => this.emit('show', { preventDefault: () => undefined }));
    }
    close() {
      notifications.delete(this.harnessId);
    }
  }

  const control = {
    clickNotification: (id: number) => notifications.get(id)?.emit('click'),
    /** Clicks an action button of a notification. */
    clickNotificationAction: (id: number, actionIndex: number) =>
      notifications
        .get(id)
        ?.emit('action', { preventDefault: () => undefined, actionIndex }, actionIndex),
    /** Makes every later notification fail (as macOS refuses an unsigned app), or succeed. */
    setNotificationError: (error: string | null) => {
      notificationError = error ?? undefined;
    },
  };
  return { Notification: FakeNotification, control };
}
