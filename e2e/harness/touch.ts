import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Taps `target` where a finger lands on the dealer's touchscreen: at its centre, which must show
 * the target (or a part of it) as the page stands — no forced click — so a control covered by
 * another, or off the screen, fails here as it would under a finger. `scrollPage`: on a screen the
 * page scrolls down (the history, not the break's), the dealer's finger scrolls the window to it
 * first; never a box inside the page, never sideways.
 */
export async function fingerTap(page: Page, target: Locator, what = '', { scrollPage = false }: { readonly scrollPage?: boolean } = {}): Promise<void> {
  await expect(target, what).toBeEnabled();
  if (scrollPage) {
    await target.evaluate((element) => {
      const box = element.getBoundingClientRect();
      window.scrollBy(0, (box.top + box.bottom) / 2 - window.innerHeight / 2);
    });
  }
  const at = await target.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const x = (box.left + box.right) / 2;
    const y = (box.top + box.bottom) / 2;
    const inside = x >= 0 && y >= 0 && x < window.innerWidth && y < window.innerHeight;
    const hit = inside ? document.elementFromPoint(x, y) : null;
    const name = (node: Element | null) => (node === null ? 'nothing (off the screen)' : (node.getAttribute('data-testid') ?? node.tagName.toLowerCase()));
    return { x, y, hits: hit !== null && (hit === element || element.contains(hit)), hit: name(hit), target: name(element) };
  });
  expect(at.hits, `${what || at.target}: a tap at its centre (${Math.round(at.x)}, ${Math.round(at.y)}) hits ${at.hit}`).toBe(true);
  await page.mouse.click(at.x, at.y);
}
