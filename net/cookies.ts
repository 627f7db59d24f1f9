/** The named cookie's value, or null; a cookie header that names it twice gives null (which one is meant?). */
export function readCookie(header: string | undefined, name: string): string | null {
  if (header === undefined) return null;
  const values = header
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part.startsWith(`${name}=`))
    .map((part) => part.slice(name.length + 1));
  return values.length === 1 ? (values[0] as string) : null;
}
