import type { PlanTarget, RequestTarget } from './plan-context.ts';

// Requests come in whole: a seed whose types fill 1.1 requests costs two. Several seeds list
// most stores (their ~12-store answers overlap), so the targets of a seed's emptiest request
// can often move to other seeds that list their stores and still have free places, and the
// request is saved. A move is made only when it adds no request anywhere.

/** Where one country's targets are asked: per seed (or lone store), its targets by type. */
export type Assignment = {
  target: RequestTarget;
  expectedStoreIds: string[];
  byType: Map<string, PlanTarget[]>;
};

/** HTTP requests a seed's targets take, grouped by type as the request will carry them. */
export type CountRequests = (byType: ReadonlyMap<string, readonly PlanTarget[]>) => number;

/**
 * For each seed, moves targets (smallest types first) to other seeds that list their stores
 * and can take them without another request, until the seed needs one request fewer; if it
 * never does, every move is undone. Changes the assignments in place; every target stays
 * assigned, whole, to a seed whose answer lists its store.
 */
export function rebalanceSeeds(assignments: readonly Assignment[], count: CountRequests): void {
  const locations = assignments.filter((entry) => entry.target.kind === 'location');
  const listedBy = new Map<string, Assignment[]>();
  for (const entry of locations) {
    for (const storeId of entry.expectedStoreIds) {
      const list = listedBy.get(storeId) ?? [];
      list.push(entry);
      listedBy.set(storeId, list);
    }
  }
  for (const from of locations) {
    const before = count(from.byType);
    if (before === 0) continue;
    const saved = new Map(locations.map((entry) => [entry, new Map(entry.byType)]));
    // Smallest types first: they fit in the free places other seeds have.
    const alone = new Map([...from.byType].map((entry) => [entry[0], count(new Map([entry]))]));
    const ordered = [...from.byType].sort(
      (a, b) => alone.get(a[0])! - alone.get(b[0])! || a[1].length - b[1].length,
    );
    for (const [productId] of ordered) {
      if (count(from.byType) < before) break;
      tryMoveType(from, productId, listedBy, count);
    }
    // Moves that saved no request would only use up places other seeds may need.
    if (count(from.byType) >= before) {
      for (const [entry, byType] of saved) entry.byType = byType;
    }
  }
}

/** Moves the targets of one type that can move free away from `from`. */
function tryMoveType(
  from: Assignment,
  productId: string,
  listedBy: ReadonlyMap<string, Assignment[]>,
  count: CountRequests,
): void {
  const targets = from.byType.get(productId) ?? [];
  const planned = new Map<Assignment, PlanTarget[]>();
  const withAdded = (to: Assignment, added: readonly PlanTarget[]): Map<string, PlanTarget[]> => {
    const next = new Map(to.byType);
    next.set(productId, [...(to.byType.get(productId) ?? []), ...added]);
    return next;
  };
  const current = new Map<Assignment, number>();
  const countNow = (to: Assignment): number => {
    const known = current.get(to);
    if (known !== undefined) return known;
    const counted = count(to.byType);
    current.set(to, counted);
    return counted;
  };
  for (const target of targets) {
    const options = (listedBy.get(target.storeId) ?? []).filter((to) => to !== from);
    // A seed already asking the type first: the move costs it no place at all.
    options.sort((a, b) => Number(b.byType.has(productId)) - Number(a.byType.has(productId)));
    const to = options.find((candidate) => {
      const added = [...(planned.get(candidate) ?? []), target];
      return count(withAdded(candidate, added)) <= countNow(candidate);
    });
    if (to === undefined) continue;
    const list = planned.get(to) ?? [];
    list.push(target);
    planned.set(to, list);
  }
  const moved = new Set([...planned.values()].flat());
  for (const [to, added] of planned) to.byType = withAdded(to, added);
  const kept = targets.filter((target) => !moved.has(target));
  if (kept.length === 0) from.byType.delete(productId);
  else from.byType.set(productId, kept);
}
