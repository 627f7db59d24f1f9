import { href, page, wordsOf } from './common';
import { html, NOTHING } from './html';
import { say, type FloorKey, type FloorLanguage } from './words';

/** The floor's plain pages: the sign-in, and a page saying one thing (not found, a bad request). */

export function renderLogin(language: FloorLanguage, wrong: boolean): string {
  const w = wordsOf(language);
  const body = html`<main class="login">
<h1>${w('floor.page.login.title')}</h1>
${wrong ? html`<p class="alert" role="alert">${w('floor.page.login.wrong')}</p>` : NOTHING}
<form method="post" action="/login">
<label>${w('floor.page.login.token')} <input type="password" name="token" autocomplete="current-password" required maxlength="512"></label>
<input type="hidden" name="lang" value="${language}">
<button type="submit">${w('floor.page.login.submit')}</button>
</form>
</main>`;
  return page(language, say(language, 'floor.page.login.title'), body, false);
}

/** A page saying one thing (not found, a bad request), in the page's language. */
export function renderMessage(language: FloorLanguage, key: FloorKey): string {
  const w = wordsOf(language);
  return page(language, say(language, 'floor.page.title'), html`<main><h1>${w('floor.page.title')}</h1><p>${w(key)}</p><p><a href="${href('/', {}, language)}">${w('floor.page.back')}</a></p></main>`, false);
}
