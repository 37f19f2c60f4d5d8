import { describe, expect, it } from 'vitest';
import { isWatchKitType } from '#shared/catalog/watch-kits.ts';

describe('Apple Watch kits', () => {
  it('tells Apple Watch types apart by their family, else by their code', () => {
    expect(isWatchKitType('applewatchultra')).toBe(true);
    expect(isWatchKitType('applewatchseries12')).toBe(true);
    expect(isWatchKitType('anything', 'watch')).toBe(true);
    expect(isWatchKitType('iphone18pro')).toBe(false);
    expect(isWatchKitType('applewatch', 'earbuds')).toBe(false);
    expect(isWatchKitType('toaster')).toBe(false);
  });
});
