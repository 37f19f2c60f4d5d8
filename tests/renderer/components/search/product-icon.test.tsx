// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ProductIcon } from '#renderer/components/search/product-icon.tsx';

afterEach(cleanup);

/** The drawn size and badge of a type's icon at the default 40 px. */
function describeIcon(productId: string): { size: number; badge: string | null } {
  const { container, unmount } = render(<ProductIcon productId={productId} />);
  const image = container.querySelector('img');
  const result = {
    size: Number(image?.getAttribute('width')),
    badge: container.querySelector('.product-icon-badge')?.textContent ?? null,
  };
  unmount();
  return result;
}

describe('ProductIcon', () => {
  it('draws every iPhone 16 model differently: Plus and Pro Max bigger, Pros badged', () => {
    const icons = ['iphone16', 'iphone16plus', 'iphone16pro', 'iphone16promax'].map(describeIcon);
    expect(new Set(icons.map((icon) => JSON.stringify(icon))).size).toBe(4);
    const [base, plus, pro, proMax] = icons;
    expect(proMax.size).toBeGreaterThan(pro.size);
    expect(plus.size).toBeGreaterThan(base.size);
    expect(pro.badge).toBe('PRO');
    expect(proMax.badge).toBe('PRO');
    expect(base.badge).toBeNull();
  });

  it('draws today’s lineup: the foldable Duo full size in its own drawing, the 18 Pros badged', () => {
    const { container } = render(<ProductIcon productId="iphoneduo" />);
    expect(container.querySelector('img')?.getAttribute('src')).not.toBe(
      render(<ProductIcon productId="iphone17" />)
        .container.querySelector('img')
        ?.getAttribute('src'),
    );
    cleanup();
    expect(describeIcon('iphoneduo')).toEqual({ size: 40, badge: null });
    expect(describeIcon('iphone18promax')).toEqual({ size: 40, badge: 'PRO' });
    expect(describeIcon('iphoneair')).toEqual({ size: 34, badge: null });
  });

  it('draws a mini smaller than the standard size', () => {
    expect(describeIcon('iphone13mini').size).toBeLessThan(describeIcon('iphone13').size);
  });

  it('keeps tablet sizes and the LTE badge', () => {
    expect(describeIcon('ipadminicellular')).toEqual({ size: 29, badge: 'LTE' });
    expect(describeIcon('ipadpro13wifi')).toEqual({ size: 40, badge: null });
  });

  it('shows a spinner for unknown types', () => {
    const { container } = render(<ProductIcon productId="toaster" />);
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('.spinner-border')).not.toBeNull();
  });
});
