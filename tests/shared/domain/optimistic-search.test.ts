import { describe, expect, it } from 'vitest';
import { applyOptimisticUpdate } from '#shared/domain/optimistic-search.ts';
import { applySettingChange } from '#shared/domain/search-settings.ts';
import { search } from '#tests/renderer/fixtures.ts';

describe('optimistic search update', () => {
  it('shows a ticked model and a flipped switch before the server answers', () => {
    const ticked = applyOptimisticUpdate(
      search,
      applySettingChange(search, {
        kind: 'preferredModels',
        partNumbers: ['MYLT3LL/A', 'MYLU3LL/A'],
      }),
    );
    expect(ticked.product_models.every((model) => model.is_preferred)).toBe(true);
    const flipped = applyOptimisticUpdate(
      search,
      applySettingChange(search, { kind: 'flag', field: 'send_email_updates', value: false }),
    );
    expect(flipped.send_email_updates).toBe(false);
    expect(flipped.product_name).toBe(search.product_name);
  });

  it('leaves a new product type or store to the server, which knows its names', () => {
    const update = applySettingChange(search, { kind: 'store', storeId: 'R092' });
    expect(applyOptimisticUpdate(search, update)).toBe(search);
  });
});
