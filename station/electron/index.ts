// Electron main process: a thin adapter. The ConsoleService does the work (and runs without
// Electron in tests and browser mode); this file only starts it, wires IPC and opens windows.
// The security policy lives in ./security as pure, unit-tested functions.
import { app, BrowserWindow, dialog, ipcMain, Menu, screen, session } from 'electron';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { registerIpc } from './ipc';
import { createWindowFeeds, type WindowFeeds } from './stateFeeds';
import { APP_NAME } from '../../protocol/contract';
import { applicationMenu, createSecureWindow, isNavigationAllowed, isPermissionGranted, windowOpenPolicy } from './security';
import { ConsoleService } from '../service/service';
import { consoleServiceOptions } from '../service/options';
import type { ChooseExportFile } from '../service/historyCommands';
import { startFailureMessage } from '../service/startFailure';

/** The dealer's window gets the commands; the player display's a preload without any. */
const dealerPreload = fileURLToPath(new URL('../preload/index.cjs', import.meta.url));
const displayPreload = fileURLToPath(new URL('../preload/display.cjs', import.meta.url));
const devServerUrl = process.env['ELECTRON_RENDERER_URL'];
const appEntryUrl = devServerUrl ?? pathToFileURL(fileURLToPath(new URL('../../renderer/index.html', import.meta.url))).href;

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

function createWindow(feeds: WindowFeeds, preloadPath: string, hash: string, bounds: Electron.Rectangle | null, title: string): BrowserWindow {
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

/** A console that cannot start (a data folder it cannot write, a journal key it cannot use) says why in one line, then quits. */
async function startService(chooseExportFile: ChooseExportFile): Promise<ConsoleService | null> {
  const dataDir = app.getPath('userData');
  try {
    return await ConsoleService.start({ ...consoleServiceOptions(dataDir, process.env, { chooseAnotherFolder: 'start the console with --user-data-dir=FOLDER' }), chooseExportFile });
  } catch (error) {
    dialog.showErrorBox(`${APP_NAME} cannot start`, startFailureMessage(error));
    app.exit(2);
    return null;
  }
}

void app.whenReady().then(async () => {
  session.defaultSession.setPermissionRequestHandler((_contents, permission, callback) => callback(isPermissionGranted(permission)));
  session.defaultSession.setPermissionCheckHandler((_contents, permission) => isPermissionGranted(permission));
  Menu.setApplicationMenu(Menu.buildFromTemplate(applicationMenu(devServerUrl !== undefined)));
  // The dealer's window (opened below): the save dialog opens over it.
  let dealer: BrowserWindow | null = null;
  // The history's export (exportHistory) goes to a file the dealer picks here; the service streams it there (station/service/historyCommands.ts).
  const chooseExportFile: ChooseExportFile = async (suggested, format) => {
    const options = { defaultPath: join(app.getPath('documents'), suggested), filters: [{ name: format.toUpperCase(), extensions: [format] }] };
    const chosen = dealer === null ? await dialog.showSaveDialog(options) : await dialog.showSaveDialog(dealer, options);
    return chosen.canceled || chosen.filePath === undefined || chosen.filePath === '' ? null : chosen.filePath;
  };
  const service = await startService(chooseExportFile);
  if (service === null) return;
  const feeds = createWindowFeeds(() => service.getState());
  service.onState((state) => feeds.push(state));
  // Commands come from the dealer window's main frame only: never the display, never a subframe.
  // (Registered before the window exists, so its page never calls a channel with no handler.)
  registerIpc(ipcMain, service, appEntryUrl, (frame) => frame !== null && dealer !== null && frame === dealer.webContents.mainFrame);
  dealer = createWindow(feeds, dealerPreload, '', null, APP_NAME);
  // The player display goes to a second monitor when there is one, without controls or menu.
  const other = screen.getAllDisplays().find((display) => display.id !== screen.getPrimaryDisplay().id);
  if (other) createWindow(feeds, displayPreload, '#/display', other.workArea, `${APP_NAME} — table`).removeMenu();
  const window = dealer;
  app.on('second-instance', () => {
    if (window.isMinimized()) window.restore();
    window.focus();
  });
  // Quit waits for the service to close: the shoe's port, the last commands, the count of a run of
  // refusals written and fsynced, the data folder's lock given back.
  let closed = false;
  app.on('before-quit', (event) => {
    if (closed) return;
    event.preventDefault();
    void service.close().finally(() => {
      closed = true;
      app.quit();
    });
  });
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});
