// The engine reads Apple's answers by meaning: empty content and parts left out find bad
// parts without treating Apple as broken, a part left out is re-asked before it is refused
// (so Apple's 20-part cut never darkens a good part), and a part ineligible everywhere is
// counted towards its retirement. Through the real client, against a fake Apple.
import { describe, expect, it } from 'vitest';
import { askPlannedRequest } from '#shared/watch/engine/index.ts';
import { createFakeApple, createFakePort, listModels } from './fake-apple.ts';

const sold = (parts: readonly { part_number: string }[], except: string[] = []) =>
  new Set(parts.map((model) => model.part_number).filter((part) => !except.includes(part)));

describe('a part Apple does not sell there', () => {
  it('is refused when asked alone and answered with empty content, and nothing is backed off', async () => {
    const apple = createFakeApple({ sold: new Set() });
    const { port, record } = createFakePort(apple.fetch);
    const tally = await askPlannedRequest(port, {
      models: listModels(1),
      control: null,
      partsPerRequest: 20,
    });
    expect(tally).toMatchObject({ requests: 1, answers: 0, refused: ['P01'] });
    expect(tally.failure).toBeUndefined();
    expect(record).toMatchObject({ refused: ['P01'], backOffs: 0 });
  });

  it('is found among good ones: left out of every store, asked again alone, then refused; the rest is filed', async () => {
    const models = listModels(6);
    const apple = createFakeApple({ sold: sold(models, ['P04']) });
    const { port, record } = createFakePort(apple.fetch);
    const tally = await askPlannedRequest(port, { models, control: null, partsPerRequest: 20 });
    expect(apple.asked).toEqual([['P01', 'P02', 'P03', 'P04', 'P05', 'P06'], ['P04']]);
    expect(tally).toMatchObject({ requests: 2, answers: 1, refused: ['P04'] });
    expect(record.answers[0]?.answer.stores[0]?.parts.map((part) => part.status)).toEqual([
      'available',
      'available',
      'available',
      'unknown',
      'available',
      'available',
    ]);
  });

  it('are halved when an answer lists only the control: each half with it, each part refused', async () => {
    const apple = createFakeApple({ sold: new Set(['CTRL', 'P03']) });
    const { port, record } = createFakePort(apple.fetch);
    const tally = await askPlannedRequest(port, {
      models: listModels(2),
      control: 'CTRL',
      partsPerRequest: 20,
    });
    expect(apple.asked).toEqual([
      ['CTRL', 'P01', 'P02'],
      ['CTRL', 'P01'],
      ['CTRL', 'P02'],
    ]);
    expect(record.refused).toEqual(['P01', 'P02']);
    expect(tally.failure).toBeUndefined();
    expect(record.backOffs).toBe(0);
  });

  it('checks the control alone first when the whole answer is empty, then asks the part without it', async () => {
    const apple = createFakeApple({ sold: new Set() });
    const { port, record } = createFakePort(apple.fetch);
    const tally = await askPlannedRequest(port, {
      models: listModels(1),
      control: 'CTRL',
      partsPerRequest: 20,
    });
    expect(apple.asked).toEqual([['CTRL', 'P01'], ['CTRL'], ['P01']]);
    expect(record.refused).toEqual(['CTRL', 'P01']);
    expect(tally.failure).toBeUndefined();
    expect(record.backOffs).toBe(0);
  });

  it('finds a control Apple does not sell: left out, re-asked without a control, refused with the others', async () => {
    const models = listModels(3);
    const apple = createFakeApple({ sold: new Set(['P02']) });
    const { port, record } = createFakePort(apple.fetch);
    const tally = await askPlannedRequest(port, { models, control: 'CTRL', partsPerRequest: 20 });
    expect(apple.asked[1]).toEqual(['CTRL', 'P01', 'P03']);
    expect(record.refused.sort()).toEqual(['CTRL', 'P01', 'P03']);
    expect(tally.answers).toBe(1);
    expect(record.backOffs).toBe(0);
  });

  it('keeps the old "Product(s) Invalid or not buyable" answer working: bisected to the part', async () => {
    const models = listModels(4);
    const apple = createFakeApple({ sold: sold(models), invalidMessageFor: new Set(['P03']) });
    const { port, record } = createFakePort(apple.fetch);
    const tally = await askPlannedRequest(port, { models, control: null, partsPerRequest: 20 });
    expect(record.refused).toEqual(['P03']);
    expect(tally.answers).toBe(2);
  });
});

describe('a part left out is only suspect', () => {
  it('comes back when a 25-part request is re-asked past Apple’s 20: the last 5 are not refused', async () => {
    const models = listModels(25);
    const apple = createFakeApple({ sold: sold(models) });
    const { port, record } = createFakePort(apple.fetch);
    const tally = await askPlannedRequest(port, { models, control: null, partsPerRequest: 25 });
    expect(apple.asked[1]).toEqual(['P21', 'P22', 'P23', 'P24', 'P25']);
    expect(tally).toMatchObject({ requests: 2, answers: 2, refused: [] });
    expect(record.refused).toEqual([]);
    const second = record.answers[1]?.answer.stores[0]?.parts ?? [];
    expect(second.map((part) => [part.partNumber, part.status])).toEqual(
      ['P21', 'P22', 'P23', 'P24', 'P25'].map((part) => [part, 'available']),
    );
  });

  it('keeps the control inside Apple’s 20 by asking it first, and re-asks the parts cut with it', async () => {
    const models = listModels(25);
    const apple = createFakeApple({ sold: new Set([...sold(models), 'CTRL']) });
    const { port, record } = createFakePort(apple.fetch);
    await askPlannedRequest(port, { models, control: 'CTRL', partsPerRequest: 26 });
    expect(apple.asked[0]?.[0]).toBe('CTRL');
    expect(apple.asked[1]).toEqual(['CTRL', 'P20', 'P21', 'P22', 'P23', 'P24', 'P25']);
    expect(record.refused).toEqual([]);
  });

  it('is not refused for one answer’s glitch', async () => {
    const models = listModels(5);
    const apple = createFakeApple({ sold: sold(models), glitches: new Set(['P02', 'P05']) });
    const { port, record } = createFakePort(apple.fetch);
    const tally = await askPlannedRequest(port, { models, control: null, partsPerRequest: 20 });
    expect(apple.asked[1]).toEqual(['P02', 'P05']);
    expect(tally.refused).toEqual([]);
    expect(record.answers).toHaveLength(2);
  });
});

describe('a part ineligible at every store', () => {
  it('is reported towards its retirement, and a sold one against', async () => {
    const models = listModels(3);
    const apple = createFakeApple({
      sold: sold(models),
      statusOf: (part, store) =>
        part === 'P01'
          ? 'ineligible'
          : part === 'P02' && store === 'R706'
            ? 'ineligible'
            : 'unavailable',
    });
    const { port, record } = createFakePort(apple.fetch);
    await askPlannedRequest(port, { models, control: null, partsPerRequest: 20 });
    expect(record.evidence).toEqual([{ ineligible: ['P01'], sold: ['P02', 'P03'] }]);
  });

  it('as the control does not make the answer unbelievable: it is counted, the answer filed', async () => {
    const models = listModels(2);
    const apple = createFakeApple({
      sold: new Set([...sold(models), 'CTRL']),
      statusOf: (part) => (part === 'CTRL' ? 'ineligible' : 'unavailable'),
    });
    const { port, record } = createFakePort(apple.fetch);
    const tally = await askPlannedRequest(port, { models, control: 'CTRL', partsPerRequest: 20 });
    expect(tally.failure).toBeUndefined();
    expect(tally.answers).toBe(1);
    expect(record.evidence[0]?.ineligible).toEqual(['CTRL']);
  });
});
