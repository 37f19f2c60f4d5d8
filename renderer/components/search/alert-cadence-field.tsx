import Form from 'react-bootstrap/Form';
import { DEFAULT_ALERT_CADENCE_MINUTES } from '#shared/watch/alert-cadence.ts';

/** The choices offered, in minutes; a value set through the API outside them is shown too. */
const CADENCE_CHOICES = [0, 5, 15, 30, 60, 120, 240, 1440] as const;

/** "Every restock at once", "At most every 15 minutes", "At most once a day". */
export function describeCadence(minutes: number): string {
  if (minutes === 0) return 'Every restock at once';
  if (minutes === 1440) return 'At most once a day';
  if (minutes % 60 === 0) {
    const hours = minutes / 60;
    return `At most every ${hours === 1 ? 'hour' : `${hours} hours`}`;
  }
  return `At most every ${minutes} minutes`;
}

/**
 * "Alert messages": at most one message per channel within this many minutes, carrying every
 * restock that came in meanwhile; a preferred model at the search's own store goes at once.
 * On the Mac (`isLocal`) the messages are its notifications, and the words say so.
 */
export function AlertCadenceField({
  minutes,
  isDisabled,
  onCommit,
  className,
  isLocal = false,
}: {
  minutes: number;
  isDisabled: boolean;
  onCommit: (minutes: number) => void;
  className?: string;
  isLocal?: boolean;
}) {
  const message = isLocal ? 'notification' : 'message';
  const choices: readonly number[] = CADENCE_CHOICES.includes(
    minutes as (typeof CADENCE_CHOICES)[number],
  )
    ? CADENCE_CHOICES
    : [...CADENCE_CHOICES, minutes].sort((a, b) => a - b);
  return (
    <Form.Group className={className} controlId="setting-alert-cadence">
      <Form.Label className="small mb-1">
        {isLocal ? 'Notifications on this Mac' : 'Alert messages'}
      </Form.Label>
      <Form.Select
        size="sm"
        style={{ maxWidth: 260 }}
        value={minutes}
        disabled={isDisabled}
        onChange={(event) => onCommit(Number(event.target.value))}
      >
        {choices.map((choice) => (
          <option key={choice} value={choice}>
            {describeCadence(choice)}
            {choice === DEFAULT_ALERT_CADENCE_MINUTES ? ' (default)' : ''}
          </option>
        ))}
      </Form.Select>
      <Form.Text>
        Restocks in between come together in the next {message}. A preferred model at this search’s
        own store is always {isLocal ? 'shown' : 'sent'} at once.
      </Form.Text>
    </Form.Group>
  );
}
