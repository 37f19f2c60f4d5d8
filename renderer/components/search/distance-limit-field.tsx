import { useState } from 'react';
import Form from 'react-bootstrap/Form';
import { MAX_DISTANCE_BOUNDS, parseMaxDistance } from '#shared/domain/search-settings.ts';

/**
 * "Only stores within N miles": empty means no limit. The value is committed on blur or
 * Enter, and only when it is valid and changed; an invalid one shows why beside the field.
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
}) {
  const [text, setText] = useState(miles?.toString() ?? '');
  const [error, setError] = useState<string | null>(null);
  const commit = () => {
    const parsed = parseMaxDistance(text);
    if ('error' in parsed) {
      setError(parsed.error);
      return;
    }
    setError(null);
    if (parsed.miles !== miles) onCommit(parsed.miles);
  };
  return (
    <Form.Group className={className} controlId={id}>
      <Form.Label className={labelClassName}>{label}</Form.Label>
      <Form.Control
        type="number"
        inputMode="decimal"
        min={MAX_DISTANCE_BOUNDS.min}
        max={MAX_DISTANCE_BOUNDS.max}
        step={0.5}
        size={size}
        style={{ maxWidth }}
        placeholder="Any distance"
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
