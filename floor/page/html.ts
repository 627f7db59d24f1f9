/**
 * HTML built by a tagged template that escapes by default: `html\`<td>${name}</td>\`` escapes every
 * interpolated string, number or boolean (`&`, `<`, `>`, `"`, `'`), so a table name, a note or a
 * player's name from the database reaches the page as text. What another `html` template made, or
 * a list of them, goes in as it is (it was escaped where it was made). The one way past the
 * escaping is `trusted()`, for HTML this code made and held as a string; each use says why.
 */

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe to stand anywhere in HTML: in an element or in a quoted attribute. */
export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (character) => ESCAPES[character] as string);

/** Held by this module only: no other code can make an Html but through `html` or `trusted`. */
const MADE: unique symbol = Symbol('html');

/** A piece of HTML: only `html`, `joinHtml` and `trusted` make one. */
export class Html {
  readonly #text: string;
  constructor(made: typeof MADE, text: string) {
    if (made !== MADE) throw new TypeError('HTML is made with html`…`');
    this.#text = text;
  }

  toString(): string {
    return this.#text;
  }
}

const made = (text: string): Html => new Html(MADE, text);

/** What a template takes: text (escaped), HTML (as it is), or a list of them (one after another). */
export type HtmlValue = string | number | boolean | Html | readonly HtmlValue[];

function piece(value: HtmlValue): string {
  if (value instanceof Html) return value.toString();
  if (Array.isArray(value)) return (value as readonly HtmlValue[]).map(piece).join('');
  return escapeHtml(String(value));
}

/** The tag: `html\`<p>${text}</p>\`` escapes `text`. */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): Html {
  let text = strings[0] ?? '';
  values.forEach((value, index) => {
    text += piece(value) + (strings[index + 1] ?? '');
  });
  return made(text);
}

/** Pieces of HTML with a separator between them (the separator is text, escaped like any other). */
export function joinHtml(items: readonly HtmlValue[], separator: string): Html {
  return made(items.map(piece).join(escapeHtml(separator)));
}

/** The empty piece: a section a page leaves out. */
export const NOTHING: Html = made('');

/**
 * HTML taken as it is, NOT escaped: only for HTML this code made itself and that reached here as a
 * string (a section the server hands back to a page). Never for anything read from a request or
 * the database. Every use says why.
 */
export function trusted(text: string): Html {
  return made(text);
}
