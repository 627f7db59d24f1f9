import { readFileSync } from 'node:fs';
import { expect, test, type ConsoleMessage, type Page } from '@playwright/test';
import type { Language } from '../protocol/contract';
import { startConsole, stopConsoles, type RunningConsole } from './harness/console';
import { SCREENS, tourScreens, type ScreenName } from './harness/tour';

// Every screen in Finnish and in Russian: no message key shown instead of a text, no key missing
// from the language (vue-i18n would fall back to English silently), <html lang> set to match.

type Messages = { readonly [key: string]: string | Messages };

function locale(language: Language): Messages {
  return JSON.parse(readFileSync(new URL(`../renderer/locales/${language}.json`, import.meta.url), 'utf8')) as Messages;
}

function message(messages: Messages, path: string): string {
  const value = path.split('.').reduce<string | Messages | undefined>((node, key) => (typeof node === 'object' ? node[key] : undefined), messages);
  if (typeof value !== 'string') throw new Error(`no message ${path}`);
  return value;
}

const english = locale('en');

/** A message key on the screen: any top-level section of the locale files (and the usual ones) followed by `.name`. */
const SECTIONS = [...new Set([...Object.keys(english), 'app', 'nav', 'setup', 'counts', 'deal', 'result', 'history', 'settings', 'display', 'source', 'race', 'language', 'seat'])];
const KEY_PATTERN = new RegExp(`\\b(?:${SECTIONS.join('|')})\\.[a-zA-Z][a-zA-Z.]*`, 'g');
/** An interpolation left unfilled (`{seat}`). */
const PLACEHOLDER_PATTERN = /\{[a-zA-Z]+\}/g;

/** The heading each screen must show, by message key. */
const TITLES: Record<ScreenName, string> = {
  setup: 'setup.title',
  counts: 'counts.title',
  dealing: 'dealing.title',
  tiebreak: 'dealing.titleTiebreak',
  result: 'result.title',
  display: 'display.title',
  history: 'history.title',
  // The record opens on the history screen, under its title.
  record: 'history.title',
  settings: 'settings.title',
};

/** What vue-i18n's development build prints for a missing key; the production build prints nothing, so the hook below does. */
const MISSING_WARNING = /\[intlify\]|Not found '.*' key|fall(?:ing)? ?back to/i;
const SELF_TEST_KEY = 'e2e.selfTest.missingKey';

/**
 * Runs in every page before the console's own scripts. When Vue mounts the app, finds the vue-i18n
 * instance it provides and installs a missing-key handler that prints vue-i18n's own warning, so
 * a key missing from the chosen language shows in the browser console in the production build too.
 */
function hookMissingKeys(): void {
  const hooked = window as unknown as { __e2eI18nHooked?: boolean; __e2eT?: (key: string) => string };
  Object.defineProperty(Element.prototype, '__vue_app__', {
    configurable: true,
    set(this: Element, app: { _context: { provides: Record<symbol, unknown> } }) {
      Object.defineProperty(this, '__vue_app__', { value: app, configurable: true, writable: true });
      const provides = app._context.provides;
      for (const key of Object.getOwnPropertySymbols(provides)) {
        const global = (provides[key] as { global?: { setMissingHandler?: unknown; t?: unknown } } | undefined)?.global;
        if (global === undefined || typeof global.setMissingHandler !== 'function') continue;
        const composer = global as { setMissingHandler(handler: (locale: string, key: string) => void): void; t(key: string): string };
        composer.setMissingHandler((locale, missing) => console.warn(`[intlify] Not found '${missing}' key in '${locale}' locale messages.`));
        hooked.__e2eI18nHooked = true;
        hooked.__e2eT = (text) => composer.t(text);
      }
    },
  });
}

/** Checks one screen: language of the page, the screen's heading in that language, no key or placeholder shown. */
async function expectTranslated(page: Page, screen: ScreenName, language: Language, messages: Messages): Promise<void> {
  expect(await page.evaluate(() => (window as unknown as { __e2eI18nHooked?: boolean }).__e2eI18nHooked), 'missing-key hook installed').toBe(true);
  await expect(page.locator('html')).toHaveAttribute('lang', language);
  const title = message(messages, TITLES[screen]);
  if (screen === 'display') await expect(page.getByRole('heading', { level: 1 })).toContainText(title);
  else await expect(page.locator('.view__title')).toHaveText(title);
  // Everything a person sees or hears: the rendered text and the accessible names and hints.
  const text = await page.evaluate(() => {
    const attributes = ['aria-label', 'placeholder', 'title', 'alt', 'aria-description', 'aria-roledescription'];
    const values = [...document.querySelectorAll('*')].flatMap((element) =>
      attributes.map((name) => element.getAttribute(name)).filter((value): value is string => value !== null),
    );
    return [document.title, document.body.innerText, ...values].join('\n');
  });
  expect(text.match(KEY_PATTERN) ?? [], `message keys shown on ${screen} in ${language}`).toEqual([]);
  expect(text.match(PLACEHOLDER_PATTERN) ?? [], `unfilled placeholders on ${screen} in ${language}`).toEqual([]);
}

for (const language of ['fi', 'ru'] as const) {
  test.describe(`${language}`, () => {
    let app: RunningConsole;
    test.beforeEach(async () => {
      app = await startConsole();
    });
    test.afterEach(async () => {
      await stopConsoles(app);
    });

    test(`every screen in ${language === 'fi' ? 'Finnish' : 'Russian'} with no untranslated key`, async ({ page, context }) => {
      const messages = locale(language);
      const warnings: string[] = [];
      const errors: string[] = [];
      context.on('console', (entry: ConsoleMessage) => {
        if (MISSING_WARNING.test(entry.text())) warnings.push(entry.text());
      });
      context.on('weberror', (error) => errors.push(error.error().message));
      await context.addInitScript(hookMissingKeys);

      const visited = await tourScreens(page, app, (screen, on) => expectTranslated(on, screen, language, messages), language);
      expect(visited).toEqual([...SCREENS]);
      await expect(page.getByTestId('nav-setup')).toHaveText(message(messages, 'nav.setup'));

      // The hook works: a key that exists nowhere is reported in the console (then left out below).
      const shown = await page.evaluate((key) => (window as unknown as { __e2eT: (text: string) => string }).__e2eT(key), SELF_TEST_KEY);
      expect(shown).toBe(SELF_TEST_KEY);
      await expect.poll(() => warnings.some((warning) => warning.includes(SELF_TEST_KEY))).toBe(true);

      expect(warnings.filter((warning) => !warning.includes(SELF_TEST_KEY)), 'vue-i18n missing-key warnings').toEqual([]);
      expect(errors).toEqual([]);
    });
  });
}
