import { useEffect, useMemo, useRef, useState } from 'react';
import Form from 'react-bootstrap/Form';
import type { Account } from '#shared/api/account.ts';
import { isCanonicalTimeZone, listTimeZones } from '#shared/domain/quiet-hours.ts';
import { useMyAccount, useSaveTimeZone } from '#renderer/api/account-queries.ts';
import { describeRequestError, readErrorBody } from '#renderer/api/api-errors.ts';

/** Shown when the time zone could not be saved and the server gave no reason. */
export const TIME_ZONE_SAVE_FAILED_TEXT = "The time zone couldn't be saved. Please try again.";

/** The browser's own IANA zone, or undefined when it reports none Intl accepts. */
export function readBrowserTimeZone(): string | undefined {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return isCanonicalTimeZone(zone) ? zone : undefined;
}

/**
 * Gives an account that has no time zone yet the browser's, once per page load: alert times
 * are then local from the first alert on, without asking (issue 42). My Account changes it.
 */
export function useDefaultTimeZone(account: Account | undefined): void {
  const save = useSaveTimeZone();
  const isSent = useRef(false);
  useEffect(() => {
    if (account === undefined || account.time_zone !== null || isSent.current) return;
    const zone = readBrowserTimeZone();
    if (zone === undefined) return;
    isSent.current = true;
    save.mutate({ time_zone: zone });
  }, [account, save]);
}

/** Renders nothing; on the website's signed-in home it gives a new account the browser's zone. */
export function TimeZoneDefault() {
  useDefaultTimeZone(useMyAccount().data);
  return null;
}

/** The server's reason (without its field prefix), or the generic sentence. */
function describeSaveError(error: unknown): string {
  const { message } = readErrorBody(error);
  return message === undefined
    ? describeRequestError(error, TIME_ZONE_SAVE_FAILED_TEXT)
    : message.replace(/^time_zone: /, '');
}

/**
 * My Account's "Time zone for alerts": every email, text, push and channel message writes
 * times in it. Saved as soon as another zone is chosen, with its status beside the control.
 */
export function TimeZoneField({ account }: { account: Account | undefined }) {
  const save = useSaveTimeZone();
  const zones = useMemo(() => listTimeZones(), []);
  const [value, setValue] = useState(account?.time_zone ?? readBrowserTimeZone() ?? 'UTC');
  useEffect(() => {
    if (account?.time_zone != null) setValue(account.time_zone);
  }, [account?.time_zone]);
  const choose = (zone: string) => {
    setValue(zone);
    save.mutate({ time_zone: zone });
  };
  return (
    <Form.Group controlId="account-time-zone" className="mb-3" style={{ maxWidth: 360 }}>
      <Form.Label>Time zone for alerts</Form.Label>
      <Form.Select
        value={value}
        disabled={account === undefined || save.isPending}
        onChange={(event) => choose(event.target.value)}
      >
        {(zones.includes(value) ? zones : [value, ...zones]).map((zone) => (
          <option key={zone} value={zone}>
            {zone.replaceAll('_', ' ')}
          </option>
        ))}
      </Form.Select>
      <Form.Text>Times in alert emails, texts and notifications are shown in this zone.</Form.Text>
      <span className="small ms-2" role="status" data-testid="save-status-time-zone">
        {save.isPending ? 'Saving...' : null}
        {save.isSuccess ? 'Saved' : null}
      </span>
      {save.isError ? (
        <p className="text-danger small mb-0" role="alert">
          {describeSaveError(save.error)}
        </p>
      ) : null}
    </Form.Group>
  );
}
