/**
 * The Content-Security-Policy of the renderer. renderer/index.html carries the same policy in a
 * meta tag; station/electron/security.test.ts checks the two agree. Both
 * adapters serve the page with it: the Electron window (station/electron/security.ts) and browser
 * mode (station/web/static.ts).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');
