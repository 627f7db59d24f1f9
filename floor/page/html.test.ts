import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeHtml, html, joinHtml, NOTHING, trusted } from './html';

/** Whether the text holds `<`, `>`, `"` or `'` at all, or an `&` that does not start one of the escapes the builder writes. */
const unescaped = (text: string): boolean => /[<>"']|&(?!(?:amp|lt|gt|quot|#39);)/.test(text);

describe('html`…`: HTML that escapes by default', () => {
  it('escapes any string interpolated: none of < > & " \' comes out unescaped, and the text reads back whole', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), fc.string({ maxLength: 60 }), (text, other) => {
        const inner = html`${text}`.toString();
        expect(unescaped(inner)).toBe(false);
        const unescape = (value: string) => value.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name] as string);
        expect(unescape(inner)).toBe(text);
        // In an element, in an attribute, in a list and joined: the template's own markup is all there is.
        const made = html`<p title="${other}">${text}</p>${[text, html`<b>${other}</b>`]}${joinHtml([text, other], ', ')}`.toString();
        expect(made).toBe(`<p title="${escapeHtml(other)}">${escapeHtml(text)}</p>${escapeHtml(text)}<b>${escapeHtml(other)}</b>${escapeHtml(text)}, ${escapeHtml(other)}`);
      }),
    );
  });

  it('takes numbers and booleans as text, HTML it made (and lists of it) as it is, and trusted() only as said', () => {
    expect(html`<td>${1234}</td><td data-on="${false}">${html`<b>${'<i>'}</b>`}</td>`.toString()).toBe('<td>1234</td><td data-on="false"><b>&lt;i&gt;</b></td>');
    expect(html`<ul>${['a', 'b'].map((item) => html`<li>${item}</li>`)}</ul>`.toString()).toBe('<ul><li>a</li><li>b</li></ul>');
    expect(html`${NOTHING}`.toString()).toBe('');
    expect(joinHtml([html`<br>`, '<'], ' & ').toString()).toBe('<br> &amp; &lt;');
    expect(html`${trusted('<hr>')}`.toString()).toBe('<hr>');
  });

  it('cannot be made but by the builder', () => {
    const Made = html``.constructor as new (made: symbol, text: string) => unknown;
    expect(() => new Made(Symbol('html'), '<script>')).toThrow(TypeError);
  });
});
