import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signUnsubscribeToken, verifyUnsubscribeToken } from '#server/notify/unsubscribe-token.ts';

const KEY = randomBytes(32);
const SEARCH_ID = '3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b';

describe('unsubscribe tokens', () => {
  it('verifies a token to the search it was signed for', () => {
    expect(verifyUnsubscribeToken(KEY, signUnsubscribeToken(KEY, SEARCH_ID))).toBe(SEARCH_ID);
  });

  it('refuses tokens signed with another key or for a swapped search id', () => {
    const token = signUnsubscribeToken(randomBytes(32), SEARCH_ID);
    expect(verifyUnsubscribeToken(KEY, token)).toBeUndefined();
    const otherId = '00000000-0000-4000-8000-000000000000';
    const swapped = signUnsubscribeToken(KEY, SEARCH_ID).replace(SEARCH_ID, otherId);
    expect(verifyUnsubscribeToken(KEY, swapped)).toBeUndefined();
  });

  it('refuses any alteration of a valid token', () => {
    const token = signUnsubscribeToken(KEY, SEARCH_ID);
    fc.assert(
      fc.property(
        fc.nat({ max: token.length - 1 }),
        fc.string({ minLength: 1, maxLength: 1 }),
        (index, replacement) => {
          const altered = `${token.slice(0, index)}${replacement}${token.slice(index + 1)}`;
          fc.pre(altered !== token && altered.toLowerCase() !== token.toLowerCase());
          expect(verifyUnsubscribeToken(KEY, altered)).toBeUndefined();
        },
      ),
    );
  });

  it('refuses malformed tokens', () => {
    for (const token of [
      '',
      'u1',
      `u1.${SEARCH_ID}`,
      `u2.${SEARCH_ID}.abc`,
      'u1.not-a-uuid.abc',
      `u1.${SEARCH_ID}.a.b`,
    ]) {
      expect(verifyUnsubscribeToken(KEY, token)).toBeUndefined();
    }
  });
});
