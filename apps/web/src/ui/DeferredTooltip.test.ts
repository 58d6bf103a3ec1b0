import { createElement } from 'react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { nextTrigger, type TooltipTrigger, type TriggerProps } from './DeferredTooltip';
import favouriteSource from './product/FavouriteButton.tsx?raw';
import counterSource from './QuantityCounter.tsx?raw';
import source from './DeferredTooltip.tsx?raw';

const loaded = vi.hoisted(() => ({ modules: 0 }));
vi.mock('./LoadedTooltip', async (original) => {
  loaded.modules++;
  return original();
});

let renderToHtml: typeof import('./render-for-test').renderToHtml;
let DeferredTooltip: typeof import('./DeferredTooltip').DeferredTooltip;
beforeAll(async () => {
  ({ renderToHtml } = await import('./render-for-test'));
  ({ DeferredTooltip } = await import('./DeferredTooltip'));
});

const element = {} as HTMLElement;
const closed: TooltipTrigger = { target: null, opened: false };

describe('DeferredTooltip: Mantine’s Tooltip loaded on the first hover or keyboard focus', () => {
  it('renders the child alone, unchanged, and loads no tooltip code with the page', async () => {
    const button = createElement<TriggerProps>(
      'button',
      { type: 'button', 'aria-label': 'Menge übernehmen' } as TriggerProps,
      'OK',
    );
    const plain = await renderToHtml(button);
    const wrapped = await renderToHtml(
      createElement(DeferredTooltip, { label: 'Menge übernehmen', withArrow: true, children: button }),
    );
    expect(wrapped).toBe(plain);
    expect(wrapped).not.toContain('tooltip');
    expect(loaded.modules).toBe(0);
  });

  it('is what the cards’ buttons use: no static import of Mantine’s Tooltip there', () => {
    for (const text of [favouriteSource, counterSource, source]) {
      expect(text).not.toMatch(/import \{[^}]*\bTooltip\b[^}]*\} from '@mantine\/core'/);
    }
    expect(source).toMatch(/import\('\.\/LoadedTooltip'\)/);
  });

  it('opens on hover with a mouse, not on touch (as Mantine’s Tooltip by default)', () => {
    expect(nextTrigger(closed, { type: 'pointerenter', pointerType: 'mouse', element })).toEqual({
      target: element,
      opened: true,
    });
    expect(nextTrigger(closed, { type: 'pointerenter', pointerType: 'touch', element })).toBe(closed);
    expect(nextTrigger(closed, { type: 'pointerenter', pointerType: 'pen', element })).toBe(closed);
  });

  it('opens on keyboard focus only (:focus-visible), not on a click’s focus', () => {
    expect(nextTrigger(closed, { type: 'focus', focusVisible: true, element })).toEqual({
      target: element,
      opened: true,
    });
    expect(nextTrigger(closed, { type: 'focus', focusVisible: false, element })).toBe(closed);
  });

  it('closes on leave, blur and Escape, keeping its target (the code stays loaded)', () => {
    const open: TooltipTrigger = { target: element, opened: true };
    for (const type of ['pointerleave', 'blur', 'escape'] as const) {
      expect(nextTrigger(open, { type })).toEqual({ target: element, opened: false });
    }
    expect(nextTrigger(closed, { type: 'blur' })).toBe(closed);
  });
});
