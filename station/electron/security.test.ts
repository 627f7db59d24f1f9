import { readFileSync } from 'node:fs';
import type { BrowserWindowConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../protocol/contentSecurityPolicy';
import {
  applicationMenu,
  createSecureWindow,
  isNavigationAllowed,
  isPermissionGranted,
  isTrustedSenderUrl,
  secureWebPreferences,
  windowOpenPolicy,
} from './security';

const entry = 'file:///opt/chip-race-console/resources/app/out/renderer/index.html';

describe('secureWebPreferences', () => {
  it('isolates and sandboxes the page and keeps Node out of it', () => {
    const prefs = secureWebPreferences('/app/out/preload/index.cjs');
    expect(prefs).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
  });
});

describe('createSecureWindow', () => {
  /** Stands in for BrowserWindow: keeps the options it was created with. */
  class FakeWindow {
    constructor(readonly options: BrowserWindowConstructorOptions) {}
  }

  it('creates every window with the secure webPreferences, middle-click (auxclick) disabled', () => {
    const window = createSecureWindow(FakeWindow, '/app/out/preload/index.cjs', { title: 'Chip Race Console', width: 1280, show: false });
    expect(window.options).toEqual({
      title: 'Chip Race Console',
      width: 1280,
      show: false,
      webPreferences: secureWebPreferences('/app/out/preload/index.cjs'),
    });
    expect(window.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, disableBlinkFeatures: 'Auxclick' });
  });

  it('lets no caller loosen them', () => {
    const loose = { title: 'x', webPreferences: { sandbox: false, nodeIntegration: true, contextIsolation: false } } as unknown as Parameters<typeof createSecureWindow>[2];
    const window = createSecureWindow(FakeWindow, '/p.cjs', loose);
    expect(window.options.webPreferences).toEqual(secureWebPreferences('/p.cjs'));
  });
});

describe('isNavigationAllowed', () => {
  it('allows the app entry itself, with or without a fragment', () => {
    expect(isNavigationAllowed(entry, entry)).toBe(true);
    expect(isNavigationAllowed(`${entry}#/race`, entry)).toBe(true);
    expect(isNavigationAllowed('http://localhost:5173/', 'http://localhost:5173')).toBe(true);
  });

  it.each([
    'https://example.com/',
    'http://localhost:5174/',
    'file:///etc/passwd',
    'file:///opt/chip-race-console/resources/app/out/renderer/other.html',
    `${entry}?x=1`,
    'javascript:alert(1)',
    'data:text/html,<h1>hi</h1>',
    'file:///opt/chip-race-console/resources/app/out/renderer/index.html/../other.html',
    'file:///opt/chip-race-console/resources/app/out/renderer/index.html/',
    'file://evil.example/opt/chip-race-console/resources/app/out/renderer/index.html',
    'about:blank',
    'devtools://devtools/bundled/inspector.html',
    'chrome://settings',
    'not a url',
    '',
  ])('denies %j', (target) => {
    expect(isNavigationAllowed(target, entry)).toBe(false);
  });

  it.each(['http://localhost:5173@evil.example/', 'http://localhost:5173.evil.example/', 'https://localhost:5173/', 'http://127.0.0.1:5173/', 'ws://localhost:5173/'])(
    'denies %j against a dev server entry',
    (target) => {
      expect(isNavigationAllowed(target, 'http://localhost:5173/')).toBe(false);
    },
  );

  it('denies everything when the entry itself is not a URL', () => {
    expect(isNavigationAllowed(entry, 'nonsense')).toBe(false);
  });
});

describe('isTrustedSenderUrl', () => {
  it('trusts only the app entry', () => {
    expect(isTrustedSenderUrl(entry, entry)).toBe(true);
    expect(isTrustedSenderUrl('https://evil.example/', entry)).toBe(false);
    expect(isTrustedSenderUrl(undefined, entry)).toBe(false);
  });
});

describe('applicationMenu', () => {
  const roles = (development: boolean) => JSON.stringify(applicationMenu(development)).match(/"role":"\w+"/g) ?? [];
  it('as the console ships: no reload, no developer tools', () => {
    expect(roles(false).filter((role) => /reload|forceReload|toggleDevTools/.test(role))).toEqual([]);
    expect(roles(false)).toContain('"role":"fileMenu"');
  });

  it('a development build keeps them', () => {
    expect(roles(true)).toEqual(expect.arrayContaining(['"role":"reload"', '"role":"toggleDevTools"']));
  });
});

describe('windows and permissions', () => {
  it('denies every new window', () => {
    expect(windowOpenPolicy()).toEqual({ action: 'deny' });
  });

  it.each(['https://example.com/', 'file:///etc/passwd', 'about:blank', entry])('denies a window opened on %j, whatever the page asks', (url) => {
    const handler = windowOpenPolicy as (details: { url: string; disposition: string }) => { action: string };
    expect(handler({ url, disposition: 'new-window' })).toEqual({ action: 'deny' });
    expect(handler({ url, disposition: 'foreground-tab' })).toEqual({ action: 'deny' });
  });

  it.each(['media', 'geolocation', 'notifications', 'serial', 'hid', 'openExternal', 'clipboard-read'])(
    'denies the %s permission',
    (permission) => {
      expect(isPermissionGranted(permission)).toBe(false);
    },
  );
});

describe('Content-Security-Policy', () => {
  it('is strict: no inline or eval script, no inline style', () => {
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'self'");
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-inline');
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-eval');
  });

  it('is the policy in renderer/index.html', () => {
    const html = readFileSync(new URL('../../renderer/index.html', import.meta.url), 'utf8');
    const match = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html);
    expect(match?.[1]).toBe(CONTENT_SECURITY_POLICY);
  });
});
