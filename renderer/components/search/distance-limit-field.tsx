import { useState } from 'react';
import Form from 'react-bootstrap/Form';
import { fromMiles } from '#shared/domain/alert-distance.ts';
import { MAX_DISTANCE_BOUNDS, parseMaxDistance } from '#shared/domain/search-settings.ts';
import type { DistanceUnit } from '#shared/upstream/types.ts';

/**
 * "Only stores within N miles" (or km, the store country's unit: `unit`): what empty means
 * is the caller's to say (`placeholder`). The limit is kept in miles; the field shows and reads it in `unit`. The value is
 * committed on blur or Enter, and only when it is valid and changed; an invalid one shows why
 * beside the field.
 */
export function DistanceLimitField({
  id,
  label,
  help,
  miles,
  isDisabled,
  onCommit,
  className,
  labelClassName,
  size,
  maxWidth = 140,
  unit = 'mi',
  placeholder = 'Any distance',
}: {
  id: string;
  label: string;
  help?: string;
  miles: number | null;
  isDisabled: boolean;
  onCommit: (miles: number | null) => void;
  className?: string;
  labelClassName?: string;
  size?: 'sm';
  maxWidth?: number;
  unit?: DistanceUnit;
  placeholder?: string;
}) {
  const [text, setText] = useState(miles === null ? '' : fromMiles(miles, unit).toString());
  const [error, setError] = useState<string | null>(null);
  const commit = () => {
    const parsed = parseMaxDistance(text, unit);
    if ('error' in parsed) {
      setError(parsed.error);
      return;
    }
    setError(null);
    const isSame =
      parsed.miles === null || miles === null
        ? parsed.miles === miles
        : fromMiles(parsed.miles, unit) === fromMiles(miles, unit);
    if (!isSame) onCommit(parsed.miles);
  };
  return (
    <Form.Group className={className} controlId={id}>
      <Form.Label className={labelClassName}>{label}</Form.Label>
      <Form.Control
        type="number"
        inputMode="decimal"
        min={fromMiles(MAX_DISTANCE_BOUNDS.min, unit)}
        max={fromMiles(MAX_DISTANCE_BOUNDS.max, unit)}
        step={0.5}
        size={size}
        style={{ maxWidth }}
        placeholder={placeholder}
        value={text}
        disabled={isDisabled}
        isInvalid={error !== null}
        onChange={(event) => setText(event.target.value)}
        onBlur={commit}
        onKeyDown={(event) => event.key === 'Enter' && commit()}
      />
      <Form.Control.Feedback type="invalid">{error}</Form.Control.Feedback>
      {help === undefined ? null : <Form.Text>{help}</Form.Text>}
    </Form.Group>
  );
}
