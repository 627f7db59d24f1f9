/**
 * Security policy for the Electron windows, as small pure functions (the Signal Desktop pattern):
 * station/electron/index.ts applies them, and security.test.ts checks them without launching Electron.
 * Only types come from 'electron' here.
 */
import type { BrowserWindowConstructorOptions, MenuItemConstructorOptions, WebPreferences } from 'electron';

/** Electron's BrowserWindow class, passed in by station/electron/index.ts (tests pass a stand-in that keeps the options). */
export type WindowConstructor<W> = new (options: BrowserWindowConstructorOptions) => W;

/**
 * Creates every console window: isolated, sandboxed, no Node in the page, no middle-click
 * (auxclick) opening of links. The webPreferences are written out in the `new BrowserWindow(...)`
 * call itself so that the static scan (Electronegativity, scripts/electronegativity.test.ts) reads
 * them there; `options` cannot override them.
 */
export function createSecureWindow<W>(BrowserWindow: WindowConstructor<W>, preloadPath: string, options: Omit<BrowserWindowConstructorOptions, 'webPreferences'>): W {
  return new BrowserWindow({
    ...options,
    webPreferences: {
      // Electronegativity flags every preload for review (PRELOAD_JS_CHECK, medium, "review
      // required"); reviewed: station/electron/preload.ts runs sandboxed with contextIsolation and exposes
      // only the console's commands and onState through contextBridge, never ipcRenderer or
      // Node; station/electron/preload.test.ts checks exactly that, and station/electron/ipc.ts checks every call.
      preload: preloadPath, // eng-disable PRELOAD_JS_CHECK (reviewed, see above)
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
      disableBlinkFeatures: 'Auxclick',
    },
  });
}

/** Keeps the options a window would be created with, for reading them without Electron. */
class WindowOptions {
  constructor(readonly options: BrowserWindowConstructorOptions) {}
}

/** webPreferences for every window, as createSecureWindow sets them. */
export function secureWebPreferences(preloadPath: string): WebPreferences {
  return createSecureWindow(WindowOptions, preloadPath, {}).options.webPreferences as WebPreferences;
}

/** Parses a URL, or returns null for anything that is not one. */
function parseUrl(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/**
 * Whether a page may navigate to `targetUrl`. The console is a single page: the only allowed
 * target is the app's own entry (`appEntryUrl`: the built index.html's file: URL, or the dev
 * server URL), ignoring a #fragment. Everything else — other files, other hosts, other schemes —
 * is denied.
 */
export function isNavigationAllowed(targetUrl: string, appEntryUrl: string): boolean {
  const target = parseUrl(targetUrl);
  const entry = parseUrl(appEntryUrl);
  if (target === null || entry === null) return false;
  target.hash = '';
  entry.hash = '';
  return target.href === entry.href;
}

/**
 * Whether an IPC message comes from the app's own page (checked against the sender frame's URL
 * before a handler acts). Same rule as navigation: only the app entry.
 */
export function isTrustedSenderUrl(senderUrl: string | undefined, appEntryUrl: string): boolean {
  return senderUrl !== undefined && isNavigationAllowed(senderUrl, appEntryUrl);
}

/**
 * The application menu. A development build keeps reload and the developer tools; the console as
 * it ships has neither: a reload in the middle of a race or the DevTools' console in the dealer's
 * window are one keystroke from harm. (The player display's window has no menu at all.)
 */
export function applicationMenu(development: boolean): MenuItemConstructorOptions[] {
  const view: MenuItemConstructorOptions[] = development
    ? [{ role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' }, { type: 'separator' }]
    : [];
  return [
    { role: 'fileMenu' },
    { label: 'View', submenu: [...view, { role: 'resetZoom' }, { role: 'zoomIn' }, { role: 'zoomOut' }, { type: 'separator' }, { role: 'togglefullscreen' }] },
    { role: 'windowMenu' },
  ];
}

/** `setWindowOpenHandler` result: the console never opens other windows or popups. */
export function windowOpenPolicy(): { action: 'deny' } {
  return { action: 'deny' };
}

/**
 * Permission requests (camera, geolocation, notifications, serial, HID, ...) from web content.
 * The page needs none: serial I/O lives in the main process. Deny all.
 */
export function isPermissionGranted(_permission: string): boolean {
  return false;
}
