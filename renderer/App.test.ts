// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import App from './App.vue';
import { createConsoleI18n, LOCALES, pickLocale, type Locale } from './i18n';

const expectedNames: Record<Locale, string> = {
  en: 'Chip Race Console',
  fi: 'Chip race -konsoli',
  ru: 'Консоль чип-гонки',
};

function mountIn(locale: Locale) {
  return mount(App, { global: { plugins: [createConsoleI18n(locale)] } });
}

describe('App', () => {
  it.each(LOCALES)('shows the name and tagline in %s', (locale) => {
    const wrapper = mountIn(locale);
    expect(wrapper.get('h1').text()).toBe(expectedNames[locale]);
    expect(wrapper.get('p').text().length).toBeGreaterThan(10);
    wrapper.unmount();
  });

  it('switches language from the picker', async () => {
    const wrapper = mountIn('en');
    await wrapper.get('[data-testid="locale"]').setValue('fi');
    expect(wrapper.get('h1').text()).toBe(expectedNames.fi);
    await wrapper.get('[data-testid="locale"]').setValue('ru');
    expect(wrapper.get('h1').text()).toBe(expectedNames.ru);
    wrapper.unmount();
  });
});

describe('pickLocale', () => {
  it('takes the first supported language, by its base tag', () => {
    expect(pickLocale(['fi-FI', 'en-US'])).toBe('fi');
    expect(pickLocale(['de-DE', 'ru'])).toBe('ru');
    expect(pickLocale(['EN-gb'])).toBe('en');
  });

  it('falls back to English', () => {
    expect(pickLocale([])).toBe('en');
    expect(pickLocale(['de', 'sv-SE'])).toBe('en');
  });
});
