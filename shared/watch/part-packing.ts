// How the parts of one location's request are cut into HTTP requests. Apple answers at most
// 20 parts a request (one place is the control part's), and a product type's parts travel
// together wherever they fit, because an answer covers a type's targets only when it carried
// every part of that type. First fit, largest types first: a 16-part iPhone leaves three
// places that small types fill, where packing in arrival order would open a new request.

/** A product type's parts to place in requests. */
export type TypeParts = { productId: string; parts: readonly string[] };

/**
 * Packs items into bins of at most `capacity`, first fit and largest first (equal sizes keep
 * their given order); an item larger than `capacity` gets a bin of its own.
 */
export function packFirstFit<T>(
  items: readonly T[],
  sizeOf: (item: T) => number,
  capacity: number,
): { items: T[]; used: number }[] {
  const ordered = items
    .map((item, index) => ({ item, index, size: Math.max(1, sizeOf(item)) }))
    .sort((a, b) => b.size - a.size || a.index - b.index);
  const bins: { items: T[]; used: number }[] = [];
  for (const { item, size } of ordered) {
    const bin = bins.find((candidate) => candidate.used + size <= capacity);
    if (bin === undefined) bins.push({ items: [item], used: size });
    else {
      bin.items.push(item);
      bin.used += size;
    }
  }
  return bins;
}

/**
 * Packs types' parts into HTTP requests of at most `capacity` parts: a type larger than that
 * is cut into full requests first, and its remainder packed like any other type.
 */
export function packTypes(types: readonly TypeParts[], capacity: number): TypeParts[][] {
  const size = Math.max(1, capacity);
  const pieces = types.flatMap((type) => {
    const chunks: TypeParts[] = [];
    for (let at = 0; at < type.parts.length; at += size) {
      chunks.push({ productId: type.productId, parts: type.parts.slice(at, at + size) });
    }
    return chunks;
  });
  return packFirstFit(pieces, (piece) => piece.parts.length, size).map((bin) => bin.items);
}

/** Groups models by product type, in the order their types first appear. */
export function groupByType(
  models: readonly { product_id: string; part_number: string }[],
): TypeParts[] {
  const byProduct = new Map<string, string[]>();
  for (const model of models) {
    const parts = byProduct.get(model.product_id) ?? [];
    parts.push(model.part_number);
    byProduct.set(model.product_id, parts);
  }
  return [...byProduct].map(([productId, parts]) => ({ productId, parts }));
}

/**
 * Cuts a request's parts into HTTP requests of at most `capacity`, keeping each product
 * type's parts together where they fit (the server's and the Mac's executors share it, and
 * the planner counts a request's HTTP requests with it, so both agree).
 */
export function sliceParts(
  models: readonly { product_id: string; part_number: string }[],
  capacity: number,
): string[][] {
  return packTypes(groupByType(models), capacity).map((bin) => bin.flatMap((type) => type.parts));
}
