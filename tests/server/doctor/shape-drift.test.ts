import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  FULFILLMENT_MESSAGES_SHAPE,
  isEmptyContentAnswer,
  PICKUP_MESSAGE_SHAPE,
} from '#server/doctor/pickup-shape.ts';
import {
  compareWithShape,
  describeDifference,
  type JsonShape,
} from '#server/doctor/shape-drift.ts';

const CAPTURES = path.resolve(process.cwd(), '../shared/reference/apple/captures');
const HAS_CAPTURES = existsSync(CAPTURES);

function readCapture(name: string): unknown {
  return JSON.parse(readFileSync(path.join(CAPTURES, name), 'utf8'));
}

const SHAPE: JsonShape = {
  type: 'object',
  fields: {
    status: { shape: { type: 'string' }, isRead: true },
    count: { shape: { type: 'number' }, isRead: false },
    code: { shape: { type: 'string' }, isRead: true, isNullable: true },
    region: { shape: { type: 'string' }, isRead: true, isOptional: true },
    items: {
      shape: {
        type: 'array',
        items: {
          type: 'object',
          fields: {
            parts: {
              shape: {
                type: 'map',
                values: {
                  type: 'object',
                  fields: { display: { shape: { type: 'string' }, isRead: true } },
                },
              },
              isRead: true,
            },
          },
        },
      },
      isRead: true,
    },
  },
};

describe('a JSON value held against its shape', () => {
  it('finds nothing when keys, nesting and types match, nulls and optional keys included', () => {
    const value = {
      status: '200',
      count: 3,
      code: null,
      items: [{ parts: { A: { display: 'available' }, B: { display: 'unavailable' } } }],
    };
    expect(compareWithShape(value, SHAPE)).toEqual([]);
  });

  it('names a missing or retyped field, read or not, once per path however many items repeat it', () => {
    const value = {
      status: 200,
      items: [{ parts: { A: {}, B: { display: 1 } } }, { parts: { C: {} } }],
    };
    expect(compareWithShape(value, SHAPE)).toEqual([
      { path: 'status', kind: 'type', isRead: true, found: 'number', expected: 'string' },
      { path: 'count', kind: 'missing', isRead: false },
      { path: 'code', kind: 'missing', isRead: true },
      { path: 'items[].parts.*.display', kind: 'missing', isRead: true },
      {
        path: 'items[].parts.*.display',
        kind: 'type',
        isRead: true,
        found: 'number',
        expected: 'string',
      },
    ]);
  });

  it('notes keys the shape does not know, as differences nobody reads', () => {
    const value = { status: '200', count: 1, code: 'x', items: [], extra: true };
    const differences = compareWithShape(value, SHAPE);
    expect(differences).toEqual([{ path: 'extra', kind: 'new', isRead: false }]);
    expect(describeDifference(differences[0])).toBe('extra is new (not in the capture)');
  });

  it('says what a person needs to hear for each kind of difference', () => {
    expect(describeDifference({ path: 'body.stores', kind: 'missing', isRead: true })).toBe(
      'body.stores is missing',
    );
    expect(
      describeDifference({
        path: 'body.stores[].storedistance',
        kind: 'type',
        isRead: true,
        found: 'string',
        expected: 'number',
      }),
    ).toBe('body.stores[].storedistance is string, the capture has number');
  });
});

describe.skipIf(!HAS_CAPTURES)(
  `the doctor's written shapes against Apple's captures${HAS_CAPTURES ? '' : ` (skipped: ${CAPTURES} is absent)`}`,
  () => {
    it('describe the captured UAE pickup-message answer exactly', () => {
      const capture = readCapture('ae-pickup-message-abu-dhabi-2026-09-21-mjx94.json');
      expect(compareWithShape(capture, PICKUP_MESSAGE_SHAPE)).toEqual([]);
    });

    it('see a read field removed from the capture as drift, and an unread one as a note', () => {
      const capture = readCapture('ae-pickup-message-abu-dhabi-2026-09-21-mjx94.json') as {
        body: { stores: Record<string, unknown>[] };
      };
      const [first] = capture.body.stores;
      delete first.storeNumber;
      delete first.rank;
      expect(compareWithShape(capture, PICKUP_MESSAGE_SHAPE)).toEqual([
        { path: 'body.stores[].storeNumber', kind: 'missing', isRead: true },
        { path: 'body.stores[].rank', kind: 'missing', isRead: false },
      ]);
    });

    it('recognise the captured empty-content answer, and not a pickup answer, as nothing sellable', () => {
      expect(
        isEmptyContentAnswer(readCapture('hk-pickup-message-empty-content-2025-10-06.json')),
      ).toBe(true);
      expect(
        isEmptyContentAnswer(readCapture('ae-pickup-message-abu-dhabi-2026-09-21-mjx94.json')),
      ).toBe(false);
      expect(
        isEmptyContentAnswer(readCapture('hk-fulfillment-messages-no-location-2025-10-06.json')),
      ).toBe(false);
    });

    it('hold the stores-less fulfillment capture to a store list it does not have', () => {
      const capture = readCapture('hk-fulfillment-messages-no-location-2025-10-06.json');
      expect(compareWithShape(capture, FULFILLMENT_MESSAGES_SHAPE)).toEqual([
        { path: 'body.content.pickupMessage.stores', kind: 'missing', isRead: true },
      ]);
    });
  },
);
