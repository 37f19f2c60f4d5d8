/** A model as lists show it: its name carries its capacity ("iPhone 17 Pro 1TB Silver"). */
export type NamedModel = { display_name: string };

const CAPACITY_PATTERN = /(\d+(?:\.\d+)?)\s*(GB|TB)\b/i;
const GB_PER_TB = 1024;

/** The capacity a model's name states, in GB ("2TB" -> 2048), or undefined without one. */
export function readCapacityGb(name: string): number | undefined {
  const match = CAPACITY_PATTERN.exec(name);
  if (match === null) return undefined;
  const amount = Number(match[1]);
  return match[2]?.toUpperCase() === 'TB' ? amount * GB_PER_TB : amount;
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/**
 * Orders model names by what precedes the capacity ("iPhone 17 Pro" before "iPhone 17 Pro
 * Max"), then by capacity as a size (256GB < 512GB < 1TB < 2TB, where plain text puts 1TB
 * first), then by the rest (the colour).
 */
export function compareModelNames(a: string, b: string): number {
  const left = splitAtCapacity(a);
  const right = splitAtCapacity(b);
  return (
    collator.compare(left.model, right.model) ||
    (left.capacityGb ?? 0) - (right.capacityGb ?? 0) ||
    collator.compare(left.rest, right.rest)
  );
}

/** A copy of the models in size order (see compareModelNames). */
export function sortModelsBySize<T extends NamedModel>(models: readonly T[]): T[] {
  return [...models].sort((a, b) => compareModelNames(a.display_name, b.display_name));
}

/** The name around its capacity; a name without one is all model. */
function splitAtCapacity(name: string): { model: string; capacityGb?: number; rest: string } {
  const match = CAPACITY_PATTERN.exec(name);
  if (match === null) return { model: name.trim(), rest: '' };
  return {
    model: name.slice(0, match.index).trim(),
    capacityGb: readCapacityGb(match[0]),
    rest: name.slice(match.index + match[0].length).trim(),
  };
}
