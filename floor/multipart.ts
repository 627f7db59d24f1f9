/**
 * A small, strict reader of a `multipart/form-data` body (RFC 7578), for the floor page's one
 * upload (the seat list). No library: the floor takes only the fields it names, each once, a part's
 * headers only Content-Disposition and Content-Type, the body at most `maxBytes`; anything else is
 * refused (null), never guessed at.
 */

export interface MultipartField {
  readonly value: string;
  /** The file's name as the browser sent it (a file input), absent for a plain field. */
  readonly filename?: string;
}

/** The boundary a Content-Type names (quoted or not, 1 to 70 characters as RFC 2046 allows), or null. */
export function multipartBoundary(contentType: string | undefined): string | null {
  if (typeof contentType !== 'string') return null;
  const match = /^multipart\/form-data\s*;\s*boundary=(?:"([0-9A-Za-z'()+_,\-./:=? ]{1,70})"|([0-9A-Za-z'()+_,\-./:=?]{1,70}))\s*$/i.exec(contentType.trim());
  if (match === null) return null;
  return (match[1] ?? match[2]) as string;
}

/** The fields of a multipart body (text as UTF-8), or null when it is malformed, names a field not allowed, or one twice. */
export function readMultipart(body: Buffer, boundary: string, allowed: readonly string[]): Map<string, MultipartField> | null {
  const delimiter = Buffer.from(`--${boundary}`);
  const fields = new Map<string, MultipartField>();
  if (!body.subarray(0, delimiter.length).equals(delimiter)) return null;
  let at = delimiter.length;
  for (;;) {
    // After a delimiter: `--` ends the body, CR LF starts a part.
    if (body.subarray(at, at + 2).toString('latin1') === '--') return fields;
    if (body.subarray(at, at + 2).toString('latin1') !== '\r\n') return null;
    at += 2;
    const headersEnd = body.indexOf('\r\n\r\n', at, 'latin1');
    if (headersEnd < 0 || headersEnd - at > 1024) return null;
    const headers = body.subarray(at, headersEnd).toString('utf8').split('\r\n');
    let name: string | null = null;
    let filename: string | undefined;
    for (const header of headers) {
      const colon = header.indexOf(':');
      if (colon < 0) return null;
      const key = header.slice(0, colon).trim().toLowerCase();
      const value = header.slice(colon + 1).trim();
      if (key === 'content-type') continue;
      if (key !== 'content-disposition' || name !== null) return null;
      const disposition = /^form-data\s*;\s*name="([^"\r\n]{1,64})"(?:\s*;\s*filename="([^"\r\n]{0,255})")?$/i.exec(value);
      if (disposition === null) return null;
      name = disposition[1] as string;
      filename = disposition[2];
    }
    if (name === null || !allowed.includes(name) || fields.has(name)) return null;
    const start = headersEnd + 4;
    const end = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), start);
    if (end < 0) return null;
    fields.set(name, { value: body.subarray(start, end).toString('utf8'), ...(filename === undefined ? {} : { filename }) });
    at = end + 2 + delimiter.length;
  }
}
