import { describe, expect, it } from 'vitest';
import { describeTabletVariant, getProductFamily } from '#shared/catalog/index.ts';

describe('getProductFamily', () => {
  it('draws the 13 and mini generation and older in the older phone style', () => {
    expect(getProductFamily('iphone13')).toBe('phone-classic');
    expect(getProductFamily('iphone13mini')).toBe('phone-classic');
    expect(getProductFamily('iphone12pro')).toBe('phone-classic');
    expect(getProductFamily('iphonese')).toBe('phone-classic');
  });

  it('draws 14 through 16 (and later) in the newer phone style', () => {
    for (const code of ['iphone14', 'iphone15', 'iphone16', 'iphone16plus', 'iphone16pro']) {
      expect(getProductFamily(code), code).toBe('phone-modern');
    }
    expect(getProductFamily('iphone16promax')).toBe('phone-modern');
    expect(getProductFamily('iphone16e')).toBe('phone-modern');
    expect(getProductFamily('iphone17pro')).toBe('phone-modern');
  });

  it('maps the non-phone families', () => {
    expect(getProductFamily('airpodspro')).toBe('earbuds');
    expect(getProductFamily('airpodsmax')).toBe('headphones');
    expect(getProductFamily('applewatchultra')).toBe('watch');
    expect(getProductFamily('ipadpro13cellular')).toBe('tablet');
    expect(getProductFamily('macbookair')).toBe('laptop');
    expect(getProductFamily('macstudio')).toBe('studio-desktop');
    expect(getProductFamily('macmini')).toBe('mini-desktop');
    expect(getProductFamily('studiodisplay')).toBe('display');
    expect(getProductFamily('applepencilusbcadapter')).toBe('pencil-adapter');
    expect(getProductFamily('homepodmini')).toBe('smart-speaker');
  });

  it('draws Apple Watch codes added later as watches', () => {
    expect(getProductFamily('applewatchseries12')).toBe('watch');
    expect(getProductFamily('applewatchultra4')).toBe('watch');
  });

  it('returns undefined for codes it cannot draw, so the picker shows a spinner', () => {
    for (const code of [
      '',
      'toaster',
      'IPHONE16',
      'iphone',
      'ipadmini11wifi',
      'ipadairwifi',
      'macpro',
    ]) {
      expect(getProductFamily(code), code).toBeUndefined();
    }
  });
});

describe('describeTabletVariant', () => {
  it('reads line, size and connectivity from a tablet code', () => {
    expect(describeTabletVariant('ipadpro11wifi')).toEqual({
      line: 'pro',
      size: 11,
      connectivity: 'wifi',
    });
    expect(describeTabletVariant('ipadair13cellular')).toEqual({
      line: 'air',
      size: 13,
      connectivity: 'cellular',
    });
  });

  it('leaves the size out for the one-size iPad mini', () => {
    expect(describeTabletVariant('ipadminicellular')).toEqual({
      line: 'mini',
      connectivity: 'cellular',
    });
  });

  it('returns undefined for non-tablets and malformed tablet codes', () => {
    for (const code of [
      'iphone16',
      'ipadpro12wifi',
      'ipadprowifi',
      'ipadmini13wifi',
      'ipadair11',
    ]) {
      expect(describeTabletVariant(code), code).toBeUndefined();
    }
  });
});

describe('getProductFamily for today’s lineup', () => {
  it('gives the foldable iPhone Duo its own icon and today’s other types theirs', () => {
    expect(getProductFamily('iphoneduo')).toBe('phone-foldable');
    expect(getProductFamily('iphoneair')).toBe('phone-modern');
    expect(getProductFamily('iphone18promax')).toBe('phone-modern');
    expect(getProductFamily('iphone17')).toBe('phone-modern');
    expect(getProductFamily('imac')).toBe('display');
  });
});
