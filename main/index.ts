// Electron main process entry: one window, secure defaults, nothing else yet.
// The policy itself lives in ./security (pure, unit-tested); this file only wires it to Electron.
import { app, BrowserWindow, session } from 'electron';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { APP_NAME } from './ipc/contract';
import {
  isNavigationAllowed,
  isPermissionGranted,
  secureWebPreferences,
  windowOpenPolicy,
} from './security';

const preloadPath = fileURLToPath(new URL('../preload/index.cjs', import.meta.url));
const devServerUrl = process.env['ELECTRON_RENDERER_URL'];
const appEntryUrl =
  devServerUrl ?? pathToFileURL(fileURLToPath(new URL('../renderer/index.html', import.meta.url))).href;

app.setName(APP_NAME);
app.enableSandbox();

app.on('web-contents-created', (_event, contents) => {
  contents.on('will-navigate', (event, url) => {
    if (!isNavigationAllowed(url, appEntryUrl)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!isNavigationAllowed(url, appEntryUrl)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(windowOpenPolicy);
});

function createWindow(): void {
  const window = new BrowserWindow({
    title: APP_NAME,
    width: 1280,
    height: 800,
    show: false,
    webPreferences: secureWebPreferences(preloadPath),
  });
  window.once('ready-to-show', () => window.show());
  void window.loadURL(appEntryUrl);
}

void app.whenReady().then(() => {
  session.defaultSession.setPermissionRequestHandler((_contents, permission, callback) =>
    callback(isPermissionGranted(permission)),
  );
  session.defaultSession.setPermissionCheckHandler((_contents, permission) => isPermissionGranted(permission));
  createWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});
