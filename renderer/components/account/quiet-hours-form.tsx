import { useEffect, useMemo, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { quietHoursSchema, type QuietHoursSettings } from '#shared/api/account.ts';
import { listTimeZones } from '#shared/domain/quiet-hours.ts';
import { useSaveQuietHours } from '#renderer/api/account-queries.ts';
import { describeRequestError, readErrorBody } from '#renderer/api/api-errors.ts';

/** Field names of the quiet-hours setting as the form labels them. */
const FIELD_LABELS: Record<string, string> = {
  start: 'Start',
  end: 'End',
  time_zone: 'Time zone',
  enabled: 'Quiet hours',
  always_for_preferred_at_my_store: 'Always for preferred models at my store',
};

/** Shown when quiet hours could not be saved and the server named no field. */
export const QUIET_HOURS_SAVE_FAILED_TEXT = "Quiet hours couldn't be saved. Please try again.";

type FieldError = { field: string; message: string };

/** The browser's own zone: a better first proposal than UTC for someone who never set one. */
function readBrowserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** The server's 400 ("end: The end must differ from the start") as a field and a sentence. */
function readFieldError(error: unknown): FieldError | undefined {
  const { message } = readErrorBody(error);
  const match = message === undefined ? null : /^([a-z_]+): (.*)$/s.exec(message);
  if (match === null || FIELD_LABELS[match[1] ?? ''] === undefined) return undefined;
  return { field: match[1] ?? '', message: match[2] ?? '' };
}

/**
 * My Account's quiet hours: while on, alerts wait and arrive as one summary when the window
 * ends, unless "Always for preferred models at my store" lets those through at once.
 */
export function QuietHoursForm({ saved }: { saved: QuietHoursSettings | undefined }) {
  const save = useSaveQuietHours();
  const zones = useMemo(() => listTimeZones(), []);
  const initial = (): QuietHoursSettings | undefined =>
    saved === undefined
      ? undefined
      : {
          ...saved,
          // Never saved on: propose the zone the person is in rather than UTC.
          time_zone:
            !saved.enabled && saved.time_zone === 'UTC' ? readBrowserTimeZone() : saved.time_zone,
        };
  const [values, setValues] = useState<QuietHoursSettings | undefined>(initial);
  const [invalid, setInvalid] = useState<FieldError | undefined>();
  // Fresh account data (after a save, or a reload) restarts the form from it.
  useEffect(() => setValues(initial()), [saved]);

  const isDisabled = values === undefined || save.isPending;
  const serverError = save.isError ? readFieldError(save.error) : undefined;
  const shownError = invalid ?? serverError;

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (values === undefined) return;
    // The API's own schema checks first, so the form names the field without a round trip.
    const checked = quietHoursSchema.safeParse(values);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      setInvalid({ field: String(issue?.path[0] ?? 'enabled'), message: issue?.message ?? '' });
      return;
    }
    setInvalid(undefined);
    save.mutate(checked.data, {
      onError: (error) => console.error('Quiet hours could not be saved', error),
    });
  };
  const update = (change: Partial<QuietHoursSettings>) => {
    if (values === undefined) return;
    setInvalid(undefined);
    setValues({ ...values, ...change });
  };
  const isInvalid = (field: string) => shownError?.field === field;

  return (
    <Form onSubmit={submit} noValidate aria-label="Quiet hours">
      <Form.Check
        type="switch"
        id="quiet-hours-enabled"
        className="mb-2"
        label="Quiet hours"
        checked={values?.enabled ?? false}
        disabled={isDisabled}
        onChange={(event) => update({ enabled: event.target.checked })}
      />
      <Form.Text as="p" className="mb-3">
        Alerts that come in during quiet hours wait, and arrive as one summary when they end.
      </Form.Text>
      <div className="d-flex flex-wrap gap-3 mb-3">
        <Form.Group controlId="quiet-hours-start">
          <Form.Label>Start</Form.Label>
          <Form.Control
            type="time"
            value={values?.start ?? ''}
            disabled={isDisabled}
            isInvalid={isInvalid('start')}
            onChange={(event) => update({ start: event.target.value })}
          />
        </Form.Group>
        <Form.Group controlId="quiet-hours-end">
          <Form.Label>End</Form.Label>
          <Form.Control
            type="time"
            value={values?.end ?? ''}
            disabled={isDisabled}
            isInvalid={isInvalid('end')}
            onChange={(event) => update({ end: event.target.value })}
          />
        </Form.Group>
        <Form.Group controlId="quiet-hours-time-zone" className="flex-grow-1">
          <Form.Label>Time zone</Form.Label>
          <Form.Select
            value={values?.time_zone ?? ''}
            disabled={isDisabled}
            isInvalid={isInvalid('time_zone')}
            onChange={(event) => update({ time_zone: event.target.value })}
          >
            {values !== undefined && !zones.includes(values.time_zone) ? (
              <option value={values.time_zone}>{values.time_zone}</option>
            ) : null}
            {zones.map((zone) => (
              <option key={zone} value={zone}>
                {zone.replaceAll('_', ' ')}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
      </div>
      <Form.Check
        type="checkbox"
        id="quiet-hours-preferred-at-store"
        className="mb-3"
        label="Always for preferred models at my store"
        checked={values?.always_for_preferred_at_my_store ?? false}
        disabled={isDisabled}
        onChange={(event) => update({ always_for_preferred_at_my_store: event.target.checked })}
      />
      {shownError !== undefined ? (
        <p className="text-danger" role="alert">
          {`${FIELD_LABELS[shownError.field] ?? shownError.field}: ${shownError.message}`}
        </p>
      ) : save.isError ? (
        <p className="text-danger" role="alert">
          {describeRequestError(save.error, QUIET_HOURS_SAVE_FAILED_TEXT)}
        </p>
      ) : null}
      {save.isSuccess && !save.isPending ? (
        <p className="small text-success" role="status">
          Quiet hours saved.
        </p>
      ) : null}
      <Button type="submit" variant="outline-primary" disabled={isDisabled}>
        {save.isPending ? 'Saving...' : 'Save quiet hours'}
      </Button>
    </Form>
  );
}
