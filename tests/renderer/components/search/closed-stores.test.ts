import { describe, expect, it } from 'vitest';
import {
  isStoreOpen,
  listStoresForProduct,
} from '#renderer/components/search/product-availability.ts';
import { formatStoreOptionLabel } from '#shared/domain/store-options.ts';
import { stores } from '#tests/renderer/fixtures.ts';

// A store Apple's directory no longer lists (closed_on set) stays in /v2/stores for the
// searches that watch it, but the new-search picker leaves it out, and where it is offered
// (a search's own store in its settings) its label says it is closed.

const [open, other] = stores;
const closed = { ...other, closed_on: '2026-11-25' };

describe('closed stores in the pickers', () => {
  it('leaves a closed store out of the stores a new search may choose', () => {
    expect(isStoreOpen(open)).toBe(true);
    expect(isStoreOpen({ closed_on: null })).toBe(true);
    expect(isStoreOpen(closed)).toBe(false);
    const offered = listStoresForProduct([open, closed], null).map((store) => store.store_id);
    expect(offered).toEqual([open.store_id]);
  });

  it('labels a closed store "(closed)"', () => {
    expect(formatStoreOptionLabel(closed)).toMatch(
      new RegExp(`^${closed.store_name} \\(closed\\) \\| `),
    );
    expect(formatStoreOptionLabel(open)).not.toContain('(closed)');
  });
});
