import { expect, type Locator, type Page } from '@playwright/test';

/**
 * What "fits the screen" means in the specs: an element wholly inside the viewport as the page
 * stands (no scrolling done), no sideways scrolling, and the headline as the largest type.
 */

export interface ScreenSize {
  readonly width: number;
  readonly height: number;
}

/** The dealer's screens: a table touchscreen, a laptop, a full-HD monitor. */
export const CONSOLE_SIZES: readonly ScreenSize[] = [
  { width: 1024, height: 600 },
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
];

/** The room's TV for the player display. */
export const DISPLAY_SIZES: readonly ScreenSize[] = [
  { width: 1920, height: 1080 },
  { width: 1280, height: 720 },
];

export function sizeName(size: ScreenSize): string {
  return `${size.width}x${size.height}`;
}

/** Expects the element (every match of the locator) wholly inside the viewport, where the page is scrolled now. */
export async function expectInView(locator: Locator, what: string): Promise<void> {
  const count = await locator.count();
  expect(count, `${what} is on the page`).toBeGreaterThan(0);
  for (let index = 0; index < count; index += 1) {
    const box = await locator.nth(index).evaluate((element) => {
      const rect = element.getBoundingClientRect();
      return { top: rect.top, left: rect.left, bottom: rect.bottom, right: rect.right, width: innerWidth, height: innerHeight };
    });
    const inside = box.top >= 0 && box.left >= 0 && box.bottom <= box.height + 0.5 && box.right <= box.width + 0.5;
    expect(inside, `${what}${count > 1 ? ` #${index + 1}` : ''} inside the ${box.width}×${box.height} viewport: ${JSON.stringify(box)}`).toBe(true);
  }
}

/**
 * Expects the element (every match of the locator) wholly visible where the page stands: inside
 * the viewport and inside every ancestor that clips it (overflow other than visible: a scrolling
 * grid that cuts a card off, or slides it out of its box, hides it as surely as the window's edge).
 * Says which ancestor clipped what, or what is drawn over it. `pageScrolls`: a screen the page may scroll down (not one of
 * the break's): the window's top and bottom edges are not checked, its sides still are.
 */
export async function expectUnclipped(locator: Locator, what: string, { pageScrolls = false }: { readonly pageScrolls?: boolean } = {}): Promise<void> {
  const count = await locator.count();
  expect(count, `${what} is on the page`).toBeGreaterThan(0);
  const clipped = await locator.evaluateAll((elements, pageScrolls) =>
    elements.flatMap((element) => {
      const box = element.getBoundingClientRect();
      const name = (node: Element) => node.getAttribute('data-testid') ?? `${node.tagName.toLowerCase()}${node.className && typeof node.className === 'string' ? `.${node.className.split(' ')[0]}` : ''}`;
      const round = (rect: { top: number; left: number; bottom: number; right: number }) => [rect.left, rect.top, rect.right, rect.bottom].map((value) => Math.round(value * 10) / 10).join(',');
      const found: string[] = [];
      if ((!pageScrolls && (box.top < -0.5 || box.bottom > innerHeight + 0.5)) || box.left < -0.5 || box.right > innerWidth + 0.5) found.push(`${name(element)} [${round(box)}] outside the ${innerWidth}×${innerHeight} viewport`);
      for (let parent = element.parentElement; parent !== null && parent !== document.documentElement; parent = parent.parentElement) {
        const style = getComputedStyle(parent);
        const clipsX = style.overflowX !== 'visible';
        const clipsY = style.overflowY !== 'visible';
        if (!clipsX && !clipsY) continue;
        const edge = parent.getBoundingClientRect();
        // The box the parent shows its content in: inside its borders (a scrollbar, if any, also takes its part).
        const inner = { left: edge.left + parent.clientLeft, top: edge.top + parent.clientTop, right: edge.left + parent.clientLeft + parent.clientWidth, bottom: edge.top + parent.clientTop + parent.clientHeight };
        const outX = clipsX && (box.left < inner.left - 0.5 || box.right > inner.right + 0.5);
        const outY = clipsY && (box.top < inner.top - 0.5 || box.bottom > inner.bottom + 0.5);
        if (outX || outY) found.push(`${name(element)} [${round(box)}] clipped by ${name(parent)} [${round(inner)}] (overflow ${style.overflowX}/${style.overflowY})`);
      }
      // Inside every box and still hidden: something drawn over it (a sticky row the rest scrolls
      // under). What the window shows at the element's centre must be the element or a part of it.
      const x = (box.left + box.right) / 2;
      const y = (box.top + box.bottom) / 2;
      if (found.length === 0 && y >= 0 && y <= innerHeight && x >= 0 && x <= innerWidth) {
        const shown = document.elementFromPoint(x, y);
        if (shown !== null && shown !== element && !element.contains(shown)) found.push(`${name(element)} [${round(box)}] covered by ${name(shown)}`);
      }
      return found;
    }),
    pageScrolls,
  );
  expect(clipped, `${what}: wholly visible, clipped by no scrolling container`).toEqual([]);
}

/** Expects no sideways scrolling (and, with `vertical`, no scrolling at all). */
export async function expectNoScroll(page: Page, what: string, vertical = false): Promise<void> {
  const extent = await page.evaluate(() => ({
    width: document.documentElement.scrollWidth,
    height: document.documentElement.scrollHeight,
    innerWidth,
    innerHeight,
  }));
  expect(extent.width, `${what}: no sideways scrolling (${JSON.stringify(extent)})`).toBeLessThanOrEqual(extent.innerWidth);
  if (vertical) expect(extent.height, `${what}: no scrolling (${JSON.stringify(extent)})`).toBeLessThanOrEqual(extent.innerHeight);
}

/**
 * Expects the headline's type to be the largest of any text shown (text inside a form field aside):
 * the font size of every visible element with text of its own, against the headline's.
 */
export async function expectLargestType(page: Page, headline: Locator): Promise<void> {
  const own = await headline.evaluate((element) => parseFloat(getComputedStyle(element).fontSize));
  const largest = await page.evaluate(() => {
    let best = { size: 0, text: '' };
    for (const element of document.body.querySelectorAll<HTMLElement>('*')) {
      const text = [...element.childNodes]
        .filter((node) => node.nodeType === Node.TEXT_NODE)
        .map((node) => node.textContent ?? '')
        .join('')
        .trim();
      if (text === '' || element.closest('select, option, script, style') !== null) continue;
      const rect = element.getBoundingClientRect();
      if (rect.width <= 1 || rect.height <= 1) continue;
      const style = getComputedStyle(element);
      if (style.visibility === 'hidden' || style.display === 'none') continue;
      const size = parseFloat(style.fontSize);
      if (size > best.size) best = { size, text: text.slice(0, 40) };
    }
    return best;
  });
  expect(own, `the headline (${own}px) is the largest type; largest other: ${JSON.stringify(largest)}`).toBeGreaterThanOrEqual(largest.size);
}

/** The smallest touch target: a fingertip with chips in the hand. */
export const TOUCH_MIN = 44;

/**
 * Expects every control shown (button, field, select, a disclosure's summary; a check box or radio
 * button by its label) to be at least TOUCH_MIN px each way.
 */
export async function expectTouchTargets(page: Page, what: string): Promise<void> {
  const small = await page.evaluate((least) => {
    const found: string[] = [];
    for (const control of document.querySelectorAll<HTMLElement>('button, select, summary, input, a[href]')) {
      const input = control instanceof HTMLInputElement ? control : null;
      if (input?.type === 'file' || input?.type === 'hidden') continue;
      const target = input !== null && (input.type === 'checkbox' || input.type === 'radio') ? (control.closest('label') ?? control) : control;
      const rect = target.getBoundingClientRect();
      const style = getComputedStyle(target);
      if (rect.width === 0 || rect.height === 0 || style.visibility === 'hidden') continue;
      if (target.closest('.visually-hidden, [hidden]') !== null) continue;
      if (rect.width < least - 0.5 || rect.height < least - 0.5) {
        found.push(`${target.tagName.toLowerCase()}[${target.getAttribute('data-testid') ?? target.textContent?.trim().slice(0, 20)}] ${Math.round(rect.width)}×${Math.round(rect.height)}`);
      }
    }
    return found;
  }, TOUCH_MIN);
  expect(small, `${what}: controls smaller than ${TOUCH_MIN}×${TOUCH_MIN} px`).toEqual([]);
}

/**
 * Expects every match of `locator` inside the box of `container` (its border's inside): text that
 * runs past a box's border with nothing to clip it (overflow visible) is cut by the box's look if
 * not by the window. Says what ran out, and by how much.
 */
export async function expectWithin(locator: Locator, container: Locator, what: string): Promise<void> {
  const edge = await container.evaluate((element) => {
    const box = element.getBoundingClientRect();
    return { left: box.left + element.clientLeft, top: box.top + element.clientTop, right: box.left + element.clientLeft + element.clientWidth, bottom: box.top + element.clientTop + element.clientHeight };
  });
  // An element's box, and its own text's where the text runs past it (a word too long for a
  // flex item's width overflows its box and the box does not say so).
  const boxes = await locator.evaluateAll((elements) =>
    // Words for screen readers only (a field's hidden label) are drawn nowhere.
    elements.filter((element) => element.closest('.visually-hidden') === null).map((element) => {
      const box = element.getBoundingClientRect().toJSON() as { left: number; top: number; right: number; bottom: number };
      for (const node of element.childNodes) {
        if (node.nodeType !== Node.TEXT_NODE || (node.textContent ?? '').trim() === '') continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        const text = range.getBoundingClientRect();
        box.left = Math.min(box.left, text.left);
        box.top = Math.min(box.top, text.top);
        box.right = Math.max(box.right, text.right);
        box.bottom = Math.max(box.bottom, text.bottom);
      }
      return { name: element.getAttribute('data-testid') ?? element.tagName.toLowerCase(), text: (element.textContent ?? '').trim().slice(0, 40), box };
    }),
  );
  const outside = boxes.filter(({ box }) => box.left < edge.left - 0.5 || box.right > edge.right + 0.5 || box.top < edge.top - 0.5 || box.bottom > edge.bottom + 0.5).map(({ name, text, box }) => `${name} "${text}" [${Math.round(box.left)},${Math.round(box.top)},${Math.round(box.right)},${Math.round(box.bottom)}] outside [${Math.round(edge.left)},${Math.round(edge.top)},${Math.round(edge.right)},${Math.round(edge.bottom)}]`);
  expect(outside, `${what}: inside their box`).toEqual([]);
}

/** Where a screen's controls are looked for: every button, field, select, disclosure and link a finger can tap. */
const CONTROLS = 'button, input, select, textarea, summary, a[href]';

export interface TapCheck {
  /**
   * Selectors of what a race needs (Start race, every count, the entry, every grid card, Void,
   * Confirm): each match must be tappable where the screen stands, nothing scrolled.
   */
  readonly essentials?: readonly string[];
}

/**
 * What keeps a finger from the controls of the screen shown, one line a control, [] when none:
 * for every enabled control (a check box or radio button by itself or its label), scrolled into
 * view where the screen scrolls (to the middle of each scrolling box, as a finger scrolls it),
 * the point at its centre must be the control or a part of it (`elementFromPoint`: nothing drawn
 * over it), and the control wholly inside the window and every box that clips it. First, with
 * nothing scrolled, every essential the same way where it stands. One evaluate for the whole
 * screen; the scroll positions are put back after.
 */
export async function untappableControls(page: Page, { essentials = [] }: TapCheck = {}): Promise<string[]> {
  return page.evaluate(
    ({ controls, essentials }) => {
      const name = (node: Element) => {
        const id = node.getAttribute('data-testid');
        if (id !== null) return id;
        const text = (node.getAttribute('aria-label') ?? node.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 30);
        return `${node.tagName.toLowerCase()}${node.className && typeof node.className === 'string' ? `.${node.className.split(' ')[0]}` : ''}${text === '' ? '' : ` "${text}"`}`;
      };
      const round = (rect: DOMRect) => [rect.left, rect.top, rect.right, rect.bottom].map((value) => Math.round(value)).join(',');
      const shown = (element: HTMLElement) => {
        if (element.closest('.visually-hidden, [hidden]') !== null) return false;
        if (element instanceof HTMLInputElement && (element.type === 'hidden' || element.type === 'file')) return false;
        const rect = element.getBoundingClientRect();
        if (rect.width === 0 || rect.height === 0) return false;
        const style = getComputedStyle(element);
        return style.visibility !== 'hidden' && style.display !== 'none';
      };
      const enabled = (element: HTMLElement) => !(element as HTMLButtonElement).disabled && element.closest('fieldset:disabled') === null;
      /** What is wrong with tapping `element` where it stands now, or null. */
      const problem = (element: HTMLElement, window_: boolean): string | null => {
        const box = element.getBoundingClientRect();
        const where = `${name(element)} [${round(box)}]`;
        if (window_ && (box.top < -0.5 || box.left < -0.5 || box.bottom > innerHeight + 0.5 || box.right > innerWidth + 0.5)) return `${where} not wholly in the ${innerWidth}×${innerHeight} window`;
        for (let parent = element.parentElement; parent !== null && parent !== document.documentElement && parent !== document.body; parent = parent.parentElement) {
          const style = getComputedStyle(parent);
          const clipsX = style.overflowX !== 'visible';
          const clipsY = style.overflowY !== 'visible';
          if (!clipsX && !clipsY) continue;
          const edge = parent.getBoundingClientRect();
          const inner = { left: edge.left + parent.clientLeft, top: edge.top + parent.clientTop, right: edge.left + parent.clientLeft + parent.clientWidth, bottom: edge.top + parent.clientTop + parent.clientHeight };
          if ((clipsX && (box.left < inner.left - 0.5 || box.right > inner.right + 0.5)) || (clipsY && (box.top < inner.top - 0.5 || box.bottom > inner.bottom + 0.5))) {
            return `${where} cut off by ${name(parent)} [${[inner.left, inner.top, inner.right, inner.bottom].map(Math.round).join(',')}] (overflow ${style.overflowX}/${style.overflowY})`;
          }
        }
        // Its centre, where the finger is aimed, and four points around it (a quarter in from each
        // edge): a box over the top half of Start race left its centre free (issue 41).
        const label = element instanceof HTMLInputElement && (element.type === 'checkbox' || element.type === 'radio') ? element.closest('label') : null;
        for (const [fx, fy, point] of [[0.5, 0.5, 'its centre'], [0.25, 0.25, 'its top left'], [0.75, 0.25, 'its top right'], [0.25, 0.75, 'its bottom left'], [0.75, 0.75, 'its bottom right']] as const) {
          const hit = document.elementFromPoint(box.left + box.width * fx, box.top + box.height * fy);
          if (hit === null || (hit !== element && !element.contains(hit) && !(label !== null && label.contains(hit)))) return `${where}: a tap at ${point} hits ${hit === null ? 'nothing' : `${name(hit)} [${round(hit.getBoundingClientRect())}]`}`;
        }
        return null;
      };
      const found: string[] = [];
      // What a race needs, where the screen stands: no scrolling.
      for (const selector of essentials) {
        const matches = [...document.querySelectorAll<HTMLElement>(selector)];
        if (matches.length === 0) found.push(`${selector}: not on the screen`);
        for (const element of matches) {
          const wrong = problem(element, true);
          if (wrong !== null) found.push(`without scrolling: ${wrong}`);
        }
      }
      // Every control, scrolled to where a finger reaches it.
      const scrolled = [document.scrollingElement, ...document.querySelectorAll('*')].filter((element): element is Element => element !== null && (element.scrollTop !== 0 || element.scrollLeft !== 0)).map((element) => [element, element.scrollTop, element.scrollLeft] as const);
      for (const element of document.querySelectorAll<HTMLElement>(controls)) {
        if (!shown(element) || !enabled(element)) continue;
        element.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
        // A box that clips without a scrollbar (overflow hidden) scrolls for scrollIntoView, never for a finger.
        let stuck: Element | null = null;
        for (let parent = element.parentElement; parent !== null; parent = parent.parentElement) {
          const style = getComputedStyle(parent);
          if ((parent.scrollTop !== 0 || parent.scrollLeft !== 0) && [style.overflowX, style.overflowY].some((value) => value === 'hidden' || value === 'clip')) {
            stuck ??= parent;
            parent.scrollTo({ top: 0, left: 0, behavior: 'instant' });
          }
        }
        const wrong = stuck === null ? problem(element, true) : `${name(element)} reached only by scrolling ${name(stuck)}, which has no scrollbar`;
        if (wrong !== null) found.push(wrong);
      }
      for (const element of document.querySelectorAll('*')) if (element.scrollTop !== 0 || element.scrollLeft !== 0) element.scrollTo({ top: 0, left: 0, behavior: 'instant' });
      document.scrollingElement?.scrollTo({ top: 0, left: 0, behavior: 'instant' });
      for (const [element, top, left] of scrolled) element.scrollTo({ top, left, behavior: 'instant' });
      return found;
    },
    { controls: CONTROLS, essentials },
  );
}

/** Expects every control of the screen shown tappable (untappableControls finds none). */
export async function expectEveryControlTappable(page: Page, what: string, check: TapCheck = {}): Promise<void> {
  expect(await untappableControls(page, check), `${what}: every control tappable where a finger lands`).toEqual([]);
}
