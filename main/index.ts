// Electron main process: a thin adapter. The ConsoleService does the work (and runs without
// Electron in tests and browser mode); this file only starts it, wires IPC and opens windows.
// The security policy lives in ./security as pure, unit-tested functions.
import { app, BrowserWindow, ipcMain, Menu, screen, session } from 'electron';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { registerIpc } from './electron/ipc';
import { createWindowFeeds, type WindowFeeds } from './electron/stateFeeds';
import { APP_NAME } from './ipc/contract';
import { createSecureWindow, isNavigationAllowed, isPermissionGranted, windowOpenPolicy } from './security';
import { ConsoleService } from './service/service';
import { consoleServiceOptions } from './service/options';

const preloadPath = fileURLToPath(new URL('../preload/index.cjs', import.meta.url));
const devServerUrl = process.env['ELECTRON_RENDERER_URL'];
const appEntryUrl = devServerUrl ?? pathToFileURL(fileURLToPath(new URL('../renderer/index.html', import.meta.url))).href;

app.setName(APP_NAME);
app.enableSandbox();

// One console per machine: a second start would fight over the journal and the serial port.
if (!app.requestSingleInstanceLock()) {
  app.quit();
}

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

function createWindow(feeds: WindowFeeds, hash: string, bounds: Electron.Rectangle | null, title: string): BrowserWindow {
  const window = createSecureWindow(BrowserWindow, preloadPath, {
    title,
    width: bounds?.width ?? 1280,
    height: bounds?.height ?? 800,
    ...(bounds ? { x: bounds.x, y: bounds.y } : {}),
    show: false,
  });
  window.once('ready-to-show', () => window.show());
  feeds.attach(window.webContents);
  void window.loadURL(`${appEntryUrl}${hash}`);
  return window;
}

void app.whenReady().then(async () => {
  session.defaultSession.setPermissionRequestHandler((_contents, permission, callback) => callback(isPermissionGranted(permission)));
  session.defaultSession.setPermissionCheckHandler((_contents, permission) => isPermissionGranted(permission));
  Menu.setApplicationMenu(Menu.buildFromTemplate([{ role: 'fileMenu' }, { role: 'viewMenu' }, { role: 'windowMenu' }]));
  const service = await ConsoleService.start(consoleServiceOptions(app.getPath('userData')));
  registerIpc(ipcMain, service, appEntryUrl);
  const feeds = createWindowFeeds(() => service.getState());
  service.onState((state) => feeds.push(state));
  const dealer = createWindow(feeds, '', null, APP_NAME);
  // The player display goes to a second monitor when there is one, without controls.
  const other = screen.getAllDisplays().find((display) => display.id !== screen.getPrimaryDisplay().id);
  if (other) createWindow(feeds, '#/display', other.workArea, `${APP_NAME} — table`);
  app.on('second-instance', () => {
    if (dealer.isMinimized()) dealer.restore();
    dealer.focus();
  });
  app.on('before-quit', () => {
    void service.close();
  });
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});
