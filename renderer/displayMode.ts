/** The player display opens the same page as `#/display` or `?view=display`. */
export function isDisplayMode(location: { readonly hash: string; readonly search: string }): boolean {
  const hash = location.hash.replace(/^#\/?/, '').split(/[?&/]/)[0];
  if (hash === 'display') return true;
  return new URLSearchParams(location.search).get('view') === 'display';
}
