import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import type { DesktopHost } from '#shared/bridge.ts';
import { describeWatchStatus } from '#shared/desktop/status-text.ts';
import { unwrapHostResult } from '#renderer/api/host-errors.ts';
import { useDesktopWatchStatus } from '#renderer/api/watch-queries.ts';
import { DesktopNotificationSetup } from './desktop-notification-setup.tsx';
import { useNow } from '#renderer/components/hooks/use-now.ts';

/**
 * My Searches in the app: notices the main process kept (e.g. saved data was unreadable and
 * reset), the watch loop's last and next check, and a visible warning while checks fail or
 * macOS refuses the app's notifications.
 */
export function DesktopWatchPanel({ desktop }: { desktop: DesktopHost }) {
  const now = useNow();
  const status = useDesktopWatchStatus();
  const [isChecking, setIsChecking] = useState(false);
  // Each notice is handed out once by the main process; keep it on screen until dismissed.
  const notices = useQuery({
    queryKey: ['desktopNotices'],
    queryFn: () => unwrapHostResult(desktop.takeNotices()),
    staleTime: Infinity,
    gcTime: Infinity,
  });
  const [dismissed, setDismissed] = useState<string[]>([]);

  const checkNow = () => {
    setIsChecking(true);
    void unwrapHostResult(desktop.watch.checkNow())
      .catch((error: unknown) => console.error('Check could not run', error))
      .finally(() => {
        setIsChecking(false);
        void status.refetch();
      });
  };

  const text = status.data === undefined ? null : describeWatchStatus(status.data, now);
  return (
    <div className="mb-3">
      <DesktopNotificationSetup />
      {(notices.data ?? [])
        .filter((notice) => !dismissed.includes(notice.id))
        .map((notice) => (
          <Alert
            key={notice.id}
            variant={notice.level === 'warning' ? 'warning' : 'info'}
            dismissible
            onClose={() => setDismissed((ids) => [...ids, notice.id])}
          >
            {notice.message}
          </Alert>
        ))}
      {text?.failure === undefined || text.failure === null ? null : (
        <div className="alert alert-warning py-2" role="status">
          {text.failure}. Stock shown is the last seen, and notifications may be delayed.
        </div>
      )}
      {text?.notificationProblem === undefined || text.notificationProblem === null ? null : (
        <div className="alert alert-warning py-2" role="status">
          {text.notificationProblem}
        </div>
      )}
      {(status.data?.update_problem ?? null) === null ? null : (
        <div className="alert alert-warning py-2" role="status">
          {status.data?.update_problem}
        </div>
      )}
      {text === null || status.data?.search_count === 0 ? null : (
        <div className="d-flex flex-wrap align-items-center gap-2 small text-body-secondary">
          <span data-testid="desktop-last-check">{text.lastCheck}</span>
          {text.nextCheck === null ? null : <span aria-hidden="true">·</span>}
          {text.nextCheck === null ? null : <span>{text.nextCheck}</span>}
          <Button
            variant="link"
            size="sm"
            className="p-0 ms-1"
            onClick={checkNow}
            disabled={isChecking || status.data?.state === 'checking'}
          >
            {isChecking ? 'Checking...' : 'Check now'}
          </Button>
        </div>
      )}
    </div>
  );
}
