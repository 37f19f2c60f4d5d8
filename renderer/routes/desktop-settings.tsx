import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import {
  MAX_CHECK_INTERVAL_MINUTES,
  MIN_CHECK_INTERVAL_MINUTES,
  type DesktopSettings,
  type DesktopSettingsPatch,
} from '#shared/desktop/local-search.ts';
import { useDesktopSettings, useSaveDesktopSettings } from '../api/desktop-settings-queries.ts';
import { DistanceLimitField } from '#renderer/components/search/distance-limit-field.tsx';
import { DEFAULT_NEARBY_DISTANCE } from '#shared/domain/alert-distance.ts';
import { NotFoundMessage } from '#renderer/components/layout/not-found-message.tsx';
import { SpinnerScreen } from '#renderer/components/layout/spinner-screen.tsx';
import { usePageTitle } from '#renderer/components/hooks/use-page-title.ts';
import { useHost } from '../host/host-context.tsx';
import { TEST_NOTIFICATION } from '#renderer/components/desktop/desktop-notification-setup.tsx';

/** Choices of the check interval, in minutes (the spec's five is the default). */
const INTERVAL_CHOICES = [1, 2, 5, 10, 15, 30, 60].filter(
  (minutes) => minutes >= MIN_CHECK_INTERVAL_MINUTES && minutes <= MAX_CHECK_INTERVAL_MINUTES,
);

/** /settings: the macOS app's own settings; the website has none. */
export function DesktopSettingsRoute() {
  usePageTitle('Settings');
  const host = useHost();
  const settings = useDesktopSettings();
  if (host.kind !== 'desktop') return <NotFoundMessage />;
  if (settings.isPending) return <SpinnerScreen label="Loading settings..." />;
  if (settings.isError) {
    return (
      <p className="text-danger" role="alert">
        Settings couldn't be loaded: {settings.error.message}
      </p>
    );
  }
  return <SettingsForm settings={settings.data} />;
}

/** The settings; each control saves at once and shows "Saving..." then "Saved". */
function SettingsForm({ settings }: { settings: DesktopSettings }) {
  const save = useSaveDesktopSettings();
  const isSaving = save.isPending;
  const change = (patch: DesktopSettingsPatch) => save.mutate(patch);

  return (
    <Card className="mx-auto" style={{ maxWidth: 700 }}>
      <Card.Body className="p-4">
        <h1 className="h3 mb-3">Settings</h1>
        <p className="small mb-3" role="status" aria-live="polite">
          {save.isPending ? 'Saving...' : null}
          {save.isSuccess ? 'Saved' : null}
          {save.isError ? (
            <span className="text-danger">Couldn't save that change: {save.error.message}</span>
          ) : null}
        </p>
        <Form onSubmit={(event) => event.preventDefault()} aria-busy={isSaving}>
          <Form.Group className="mb-4" controlId="settings-interval">
            <Form.Label>Check for stock every</Form.Label>
            <Form.Select
              style={{ maxWidth: 200 }}
              value={settings.check_interval_minutes}
              disabled={isSaving}
              onChange={(event) => change({ check_interval_minutes: Number(event.target.value) })}
            >
              {INTERVAL_CHOICES.map((minutes) => (
                <option key={minutes} value={minutes}>
                  {minutes === 1 ? '1 minute' : `${minutes} minutes`}
                </option>
              ))}
            </Form.Select>
            <Form.Text>
              Apple stops answering callers who ask too often, so checks are never more frequent
              than once a minute.
            </Form.Text>
          </Form.Group>
          <Form.Check
            className="mb-3"
            type="switch"
            id="settings-notifications"
            label="Show a notification when a preferred model is in stock"
            checked={settings.notifications_enabled}
            disabled={isSaving}
            onChange={(event) => change({ notifications_enabled: event.target.checked })}
          />
          <TestNotificationButton />
          <Form.Check
            className="mb-3"
            type="switch"
            id="settings-dock-icon"
            label="Show Shelfwatch in the Dock (off: only in the menu bar)"
            checked={settings.show_dock_icon}
            disabled={isSaving}
            onChange={(event) => change({ show_dock_icon: event.target.checked })}
          />
          <Form.Check
            className="mb-4"
            type="switch"
            id="settings-launch-at-login"
            label="Open Shelfwatch when I log in to this Mac"
            checked={settings.launch_at_login}
            disabled={isSaving}
            onChange={(event) => change({ launch_at_login: event.target.checked })}
          />
          <DistanceLimitField
            id="settings-distance"
            label="Nearby stores: only within N miles"
            placeholder="Country default"
            help={`Applies to searches that include nearby stores and set no limit of their own. Empty: the store country's default, ${DEFAULT_NEARBY_DISTANCE.mi} mi or ${DEFAULT_NEARBY_DISTANCE.km} km.`}
            miles={settings.default_max_distance_miles}
            isDisabled={isSaving}
            maxWidth={200}
            onCommit={(miles) => change({ default_max_distance_miles: miles })}
          />
        </Form>
      </Card.Body>
    </Card>
  );
}

/** Sends a test notification: the way to see whether macOS lets Shelfwatch's alerts through. */
function TestNotificationButton() {
  const host = useHost();
  const [state, setState] = useState<'idle' | 'sending' | 'sent' | 'failed'>('idle');
  const send = () => {
    setState('sending');
    host.showNotification(TEST_NOTIFICATION).then(
      () => setState('sent'),
      () => setState('failed'),
    );
  };
  return (
    <div className="mb-3 ms-5 small">
      <Button variant="outline-secondary" size="sm" onClick={send} disabled={state === 'sending'}>
        Send a test notification
      </Button>
      <span className="ms-2" role="status" aria-live="polite">
        {state === 'sent'
          ? 'Sent. If nothing appeared, allow notifications in System Settings > Notifications > Shelfwatch.'
          : null}
        {state === 'failed' ? "The test notification couldn't be sent." : null}
      </span>
    </div>
  );
}
