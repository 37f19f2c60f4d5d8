import type { FormatOptionLabelMeta } from 'react-select';
import type { ProductOption } from './select-options.ts';

/**
 * A product option as the menu shows it: its name, and under it the note of a type that can't
 * be watched. The chosen value shows the name alone.
 */
export function formatProductOption(
  option: ProductOption,
  meta: FormatOptionLabelMeta<ProductOption>,
) {
  if (option.note === undefined || meta.context === 'value') return option.label;
  return (
    <span>
      {option.label}
      <small className="d-block text-body-secondary">{option.note}</small>
    </span>
  );
}
