import { expect, type Locator, type Page } from '@playwright/test';

/**
 * What makes a page unreadable on a phone, found in the browser: the page is wider than the screen, a text is
 * cut (ellipsis or hidden overflow) without a title that shows it whole, or a word is broken across two lines.
 * Returns one line per finding.
 */
export function layoutProblems(page: Page, { checkWidth = true } = {}): Promise<string[]> {
  return page.evaluate((checkWidth) => {
    const problems: string[] = [];
    const width = window.innerWidth;
    const pageWidth = document.documentElement.scrollWidth;
    if (checkWidth && pageWidth > width) {
      // Name the widest elements that stick out, so the failure says where to look.
      const culprits = [...document.querySelectorAll<HTMLElement>('main *, header *')]
        .filter((el) => el.getBoundingClientRect().right > width + 1 && el.offsetParent !== null)
        .filter((el) => ![...el.children].some((child) => child.getBoundingClientRect().right > width + 1))
        .slice(0, 3)
        .map(
          (el) =>
            `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} „${(el.textContent ?? '').trim().slice(0, 40)}“`,
        );
      problems.push(`Seite ${pageWidth} px breit bei ${width} px: ${culprits.join('; ')}`);
    }

    const visible = (el: Element) => {
      const rect = el.getBoundingClientRect();
      // Visually hidden texts for screen readers (1 px, clipped) are not cut for anybody.
      if (rect.width <= 1 || rect.height <= 1) return false;
      const style = getComputedStyle(el);
      return style.visibility !== 'hidden' && style.display !== 'none';
    };
    const hasTitle = (el: Element | null) => {
      for (let node = el, depth = 0; node && depth < 4; node = node.parentElement, depth++) {
        if (node.getAttribute('title') || node.getAttribute('data-full-text')) return true;
      }
      return false;
    };
    for (const el of document.querySelectorAll<HTMLElement>('body *')) {
      if (!el.closest('main, header, nav, footer') || !visible(el)) continue;
      const ownText = [...el.childNodes]
        .filter((n) => n.nodeType === Node.TEXT_NODE)
        .map((n) => n.textContent ?? '')
        .join('')
        .trim();
      if (!ownText) continue;
      if (['INPUT', 'TEXTAREA', 'SELECT', 'OPTION', 'SCRIPT', 'STYLE'].includes(el.tagName)) continue;
      const style = getComputedStyle(el);
      const clips = style.textOverflow === 'ellipsis' || style.overflow === 'hidden' || style.overflowX === 'hidden';
      if (clips && el.scrollWidth > el.clientWidth + 1 && !hasTitle(el)) {
        problems.push(`abgeschnitten ohne Titel: „${ownText.slice(0, 60)}“ (${el.scrollWidth} > ${el.clientWidth} px)`);
      }
      // Text running out of a box that hides its overflow (a card cutting off 'einkauf@example.co').
      const textRect = (() => {
        const range = document.createRange();
        range.selectNodeContents(el);
        return range.getBoundingClientRect();
      })();
      for (let box = el.parentElement; box && box !== document.body; box = box.parentElement) {
        const boxStyle = getComputedStyle(box);
        if (boxStyle.overflowX === 'auto' || boxStyle.overflowX === 'scroll') break;
        if (boxStyle.overflowX !== 'hidden' && boxStyle.overflowX !== 'clip') continue;
        const boxRect = box.getBoundingClientRect();
        // Partly inside, partly outside: cut. Wholly outside is a slide of a carousel waiting for its turn.
        const overlaps = textRect.left < boxRect.right && textRect.right > boxRect.left;
        const sticksOut = textRect.right > boxRect.right + 1 || textRect.left < boxRect.left - 1;
        if (overlaps && sticksOut && !hasTitle(el)) {
          problems.push(`vom Rahmen abgeschnitten: „${ownText.slice(0, 60)}“`);
        }
        break;
      }
      // A single word spread over two lines ('Lieferantennum|mer'), unless the browser hyphenates it by the rules of
      // German ('Thermostat-|ventil', hyphens: auto with lang="de").
      if (style.hyphens === 'auto') continue;
      for (const node of el.childNodes) {
        if (node.nodeType !== Node.TEXT_NODE) continue;
        const text = node.textContent ?? '';
        const pattern = /[\p{L}\p{N}]{6,}/gu;
        for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          if (tops.size > 1) problems.push(`Wort umbrochen: „${match[0]}“`);
        }
      }
    }
    return [...new Set(problems)];
  }, checkWidth);
}

/** The dialog fits the screen: it is no wider than the window and nothing in it sticks out sideways. */
export async function fitsScreen(page: Page, dialog: Locator) {
  const width = page.viewportSize()!.width;
  const box = (await dialog.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(width + 1);
  const overflowing = await dialog.evaluate((root) =>
    [...root.querySelectorAll<HTMLElement>('*')]
      .filter((el) => el.offsetParent !== null && el.scrollWidth > el.clientWidth + 1)
      .filter((el) => !['INPUT', 'TEXTAREA'].includes(el.tagName) && getComputedStyle(el).overflowX !== 'auto')
      .map((el) => `${el.tagName.toLowerCase()} „${(el.textContent ?? '').trim().slice(0, 30)}“`),
  );
  expect(overflowing).toEqual([]);
}
