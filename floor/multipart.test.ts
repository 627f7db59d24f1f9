import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { multipartBoundary, readMultipart } from './multipart';

const body = (boundary: string, parts: readonly { name: string; filename?: string; value: string }[]) =>
  Buffer.from(
    `${parts.map((part) => `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}\r\n${part.filename === undefined ? '' : 'Content-Type: text/csv\r\n'}\r\n${part.value}\r\n`).join('')}--${boundary}--\r\n`,
  );

describe('the floor\'s multipart reader', () => {
  it('reads the boundary a browser sends', () => {
    expect(multipartBoundary('multipart/form-data; boundary=----WebKitFormBoundaryx1Y2')).toBe('----WebKitFormBoundaryx1Y2');
    expect(multipartBoundary('multipart/form-data; boundary="a b"')).toBe('a b');
    for (const bad of [undefined, 'application/x-www-form-urlencoded', 'multipart/form-data', `multipart/form-data; boundary=${'x'.repeat(71)}`, 'multipart/mixed; boundary=x']) expect(multipartBoundary(bad)).toBeNull();
  });

  it('reads back any fields and file (any text, line ends and all) as a browser sends them', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.string({ maxLength: 4 }), (file, lang) => {
        const boundary = '----formdata-floor-0123456789';
        fc.pre(!`\r\n${file}\r\n${lang}`.includes(`--${boundary}`));
        const read = readMultipart(body(boundary, [{ name: 'lang', value: lang }, { name: 'file', filename: 'seats.csv', value: file }]), boundary, ['lang', 'file']);
        expect(read?.get('file')).toEqual({ value: file, filename: 'seats.csv' });
        expect(read?.get('lang')).toEqual({ value: lang });
      }),
    );
  });

  it('refuses a field not named, one given twice, other headers, and a body cut short', () => {
    const b = 'xyz';
    expect(readMultipart(body(b, [{ name: 'other', value: '1' }]), b, ['file'])).toBeNull();
    expect(readMultipart(body(b, [{ name: 'file', value: '1' }, { name: 'file', value: '2' }]), b, ['file'])).toBeNull();
    expect(readMultipart(Buffer.from(`--${b}\r\nX-Evil: 1\r\nContent-Disposition: form-data; name="file"\r\n\r\n1\r\n--${b}--`), b, ['file'])).toBeNull();
    expect(readMultipart(body(b, [{ name: 'file', value: '1' }]).subarray(0, 40), b, ['file'])).toBeNull();
    expect(readMultipart(Buffer.from('garbage'), b, ['file'])).toBeNull();
  });
});
