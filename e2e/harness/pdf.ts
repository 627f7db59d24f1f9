/**
 * How many pages a PDF has, as Chromium's `page.pdf()` writes it: its `/Type /Page` objects (the
 * page tree's `/Type /Pages` nodes left out). Chromium writes page dictionaries uncompressed, so
 * reading the bytes as Latin-1 finds them all.
 */
export function pdfPageCount(pdf: Buffer): number {
  return (pdf.toString('latin1').match(/\/Type\s*\/Page(?![A-Za-z])/g) ?? []).length;
}
