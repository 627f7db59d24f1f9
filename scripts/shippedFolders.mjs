// The folders whose code ships in the Electron app: the station's, the screens' and the layers the
// station imports. The Electron scanner reads these (scripts/electronegativity.mjs) and its gate
// checks their suppressions (scripts/electronegativity.test.ts): one list for both. The floor
// (floor/) is a program of its own and is not part of the app.
export const SHIPPED_FOLDERS = ['station', 'renderer', 'engine', 'hardware', 'protocol', 'journal', 'replay', 'net', 'replication'];
