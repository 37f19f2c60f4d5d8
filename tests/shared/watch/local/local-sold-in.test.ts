import { describe, expect, it } from 'vitest';
import { createDesktopCatalog } from '#shared/desktop/desktop-catalog.ts';
import { RETIRE_AFTER_ANSWERS } from '#shared/watch/engine/index.ts';
import {
  applyLocalRetirements,
  createEmptyWatchState,
  recordLocalRetirementEvidence,
  type LocalWatchState,
} from '#shared/watch/local/index.ts';

const catalog = createDesktopCatalog();

// A type the bundled catalog sells in the US with more than one model, so "some retired" and
// "all retired" differ.
const product = catalog
  .listProducts()
  .find(
    (candidate) =>
      candidate.sold_in.includes('US') && catalog.listModels(candidate.product_id, 'US').length > 1,
  )!;
const models = catalog.listModels(product.product_id, 'US');

function retire(state: LocalWatchState, partNumbers: string[]): void {
  const findModel = (partNumber: string) => {
    const model = models.find((candidate) => candidate.part_number === partNumber);
    return model && { product_id: product.product_id, display_name: model.display_name };
  };
  for (let answer = 0; answer < RETIRE_AFTER_ANSWERS; answer += 1) {
    recordLocalRetirementEvidence(
      state,
      'US',
      { ineligible: partNumbers, sold: [] },
      findModel,
      1_000 + answer,
    );
  }
}

describe('the Mac catalog over its own retirements', () => {
  it('stops offering a type in a country once this machine retired every model of it there', () => {
    const state = createEmptyWatchState();
    retire(
      state,
      models.map((model) => model.part_number),
    );
    const shown = applyLocalRetirements(catalog, () => state);

    const listed = shown.listProducts().find((item) => item.product_id === product.product_id);
    expect(listed?.sold_in).not.toContain('US');
    expect(shown.isSoldIn(product.product_id, 'US')).toBe(false);
    expect(shown.findProduct(product.product_id)?.sold_in).not.toContain('US');
    // Elsewhere it stays as the bundled catalog has it.
    expect(listed?.sold_in).toEqual(product.sold_in.filter((country) => country !== 'US'));
  });

  it('keeps offering the type while one of its models is still sold', () => {
    const state = createEmptyWatchState();
    retire(state, [models[0].part_number]);
    const shown = applyLocalRetirements(catalog, () => state);

    expect(shown.isSoldIn(product.product_id, 'US')).toBe(true);
    expect(
      shown.listProducts().find((item) => item.product_id === product.product_id)?.sold_in,
    ).toContain('US');
  });

  it('offers the type again when an answer reports a retired model sold', () => {
    const state = createEmptyWatchState();
    const parts = models.map((model) => model.part_number);
    retire(state, parts);
    const shown = applyLocalRetirements(catalog, () => state);
    expect(shown.isSoldIn(product.product_id, 'US')).toBe(false);

    recordLocalRetirementEvidence(
      state,
      'US',
      { ineligible: [], sold: [parts[0]] },
      () => undefined,
      9_000,
    );
    expect(shown.isSoldIn(product.product_id, 'US')).toBe(true);
  });
});
