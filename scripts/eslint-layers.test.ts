// Proves every boundary of the layer table (docs/architecture.md) fires, through the real ESLint
// config and the Node API. The file paths need not exist: lintText only uses them to pick the
// config and the rule's layer.
import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

/** The layer rule's messages for `code` linted as if it were at `filePath`. */
async function layerErrors(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  if (result === undefined) throw new Error('ESLint returned no result');
  const fatal = result.messages.filter((m) => m.fatal);
  expect(fatal, 'parse errors').toEqual([]);
  return result.messages.filter((m) => m.ruleId === 'layers/boundaries').map((m) => m.message);
}

const denied = (file: string, code: string) => [file, code] as const;
const allowed = (file: string, code: string) => [file, code] as const;

describe('layers/boundaries: denied', () => {
  it.each([
    // engine/ imports nothing outside engine/
    denied('engine/race/x.ts', "import { a } from '../../station/x';"),
    denied('engine/x.ts', "import { a } from '../station/x';"),
    denied('engine/x.ts', "import { a } from '../hardware/x';"),
    denied('engine/x.ts', "import { a } from '../renderer/x';"),
    denied('engine/x.ts', "import pkg from '../package.json';"),
    denied('engine/x.ts', "import { readFileSync } from 'node:fs';"),
    denied('engine/x.ts', "import { readFileSync } from 'fs';"),
    denied('engine/x.ts', "import path from 'path';"),
    denied('engine/x.ts', "import { app } from 'electron';"),
    denied('engine/x.ts', "import { SerialPort } from 'serialport';"),
    denied('engine/x.ts', "import { ref } from 'vue';"),
    denied('engine/x.ts', "import { defineStore } from 'pinia';"),
    denied('engine/x.ts', "export { a } from '../station/x';"),
    denied('engine/x.ts', "export * from '../station/x';"),
    denied('engine/x.ts', "const m = await import('node:fs');"),
    denied('engine/x.ts', "const m = require('node:fs');"),
    denied('engine/x.ts', "import type { A } from '../station/x';"),
    denied('engine/x.ts', "import { runRace } from './cli/run';"),
    // engine/cli/ may use Node, but nothing from other layers or packages
    denied('engine/cli/race.ts', "import { a } from '../../station/x';"),
    denied('engine/cli/race.ts', "import { a } from '../../hardware/x';"),
    denied('engine/cli/race.ts', "import { app } from 'electron';"),
    // hardware/ may use engine/ and serialport, not station/, renderer/, electron
    denied('hardware/x.ts', "import { a } from '../station/x';"),
    denied('hardware/x.ts', "import { a } from '../renderer/x';"),
    denied('hardware/x.ts', "import { app } from 'electron';"),
    denied('hardware/x.ts', "import { runRace } from '../engine/cli/run';"),
    // station/ may not use renderer/
    denied('station/x.ts', "import { a } from '../renderer/x';"),
    denied('station/x.ts', "import App from '../renderer/App.vue';"),
    denied('station/x.ts', "import { ref } from 'vue';"),
    // the station's core is Electron-free and leans on neither adapter; browser mode never loads Electron
    denied('station/service/x.ts', "import { app } from 'electron';"),
    denied('station/service/x.ts', "import { createSecureWindow } from '../electron/security';"),
    denied('station/journal/x.ts', "import { startWebServer } from '../web/server';"),
    denied('station/web/x.ts', "import { app } from 'electron';"),
    denied('station/web/x.ts', "import { secureWebPreferences } from '../electron/security';"),
    denied('station/electron/x.ts', "import { startWebServer } from '../web/server';"),
    // renderer/ never reaches Node, Electron, serial or the main process
    denied('renderer/x.ts', "import { ipcRenderer } from 'electron';"),
    denied('renderer/x.ts', "import path from 'node:path';"),
    denied('renderer/x.ts', "import path from 'path';"),
    denied('renderer/x.ts', "import { readFile } from 'fs/promises';"),
    denied('renderer/x.ts', "import { SerialPort } from 'serialport';"),
    denied('renderer/x.ts', "import { RegexParser } from '@serialport/parser-regex';"),
    denied('renderer/x.ts', "import { a } from '../hardware/x';"),
    denied('renderer/x.ts', "import { a } from '../station/x';"),
    // protocol/ is pure and shared: no Node, no package, no value from station/ or hardware/
    denied('protocol/x.ts', "import path from 'node:path';"),
    denied('protocol/x.ts', "import { ref } from 'vue';"),
    denied('protocol/x.ts', "import { a } from '../station/service/service';"),
    denied('protocol/x.ts', "import { a } from '../hardware/events';"),
    denied('protocol/x.ts', "import { a } from '../renderer/x';"),
    denied('engine/x.ts', "import { a } from '../protocol/contract';"),
    // hardware/'s shared files (hardware/lineSettings.ts) are pure: protocol/ re-exports their values
    denied('hardware/lineSettings.ts', "import { SerialPort } from 'serialport';"),
    denied('hardware/lineSettings.ts', "import { readFileSync } from 'node:fs';"),
    denied('hardware/lineSettings.ts', "import { readProfile } from './profile';"),
    denied('hardware/lineSettings.ts', "import { a } from '../protocol/constants';"),
    denied('renderer/x.ts', "import { PARITIES } from '../hardware/lineSettings';"),
    denied('protocol/x.ts', "import { readProfile } from '../hardware/profile';"),
    denied('hardware/x.ts', "import { a } from '../protocol/contract';"),
    denied('renderer/x.ts', "import { runRace } from '../engine/cli/run';"),
    denied('renderer/stores/x.ts', "import { a } from '../../station/service';"),
    denied('renderer/Widget.vue', "<script setup lang=\"ts\">\nimport { ipcRenderer } from 'electron';\n</script>"),
    // the floor is a program of its own: it never leans on the station, nor the station on it
    denied('floor/fold.ts', "import { ConsoleService } from '../station/service/service';"),
    denied('floor/server.ts', "import { createAccess } from '../station/web/access';"),
    denied('floor/db/x.ts', "import { a } from '../../station/journal/journal';"),
    denied('floor/x.ts', "import { a } from '../hardware/x';"),
    denied('floor/x.ts', "import { a } from '../renderer/x';"),
    denied('floor/x.ts', "import { app } from 'electron';"),
    denied('floor/x.ts', "import { SerialPort } from 'serialport';"),
    denied('floor/x.ts', "import { ref } from 'vue';"),
    denied('floor/x.test.ts', "import { playStation } from '../system/testing/stations';"),
    denied('station/service/x.ts', "import { isTableName } from '../../floor/db/stations';"),
    denied('station/floorLink/x.ts', "import { migrate } from '../../floor/db/migrate';"),
    denied('station/x.test.ts', "import { startFloorDatabase } from '../floor/testing/postgres';"),
    // the layers both programs share lean on neither
    denied('journal/x.ts', "import { a } from '../station/journal/journal';"),
    denied('journal/x.ts', "import { a } from '../engine/cards';"),
    denied('journal/x.ts', "import { englishText } from '../engine/messages';"),
    denied('journal/x.ts', "import type { Card } from '../engine/cards';"),
    denied('journal/x.ts', "import pg from 'pg';"),
    denied('replay/x.ts', "import { a } from '../station/service/service';"),
    denied('replay/x.ts', "import { a } from '../floor/fold';"),
    denied('replay/x.ts', "import { readFile } from 'node:fs/promises';"),
    denied('replay/x.ts', "import pg from 'pg';"),
    denied('net/x.ts', "import { a } from '../station/web/key';"),
    denied('net/x.ts', "import { a } from '../protocol/contract';"),
    denied('replication/x.ts', "import { a } from '../station/journal/journal';"),
    denied('replication/x.ts', "import { a } from '../floor/db/migrate';"),
    denied('replication/x.ts', "import { a } from '../replay/session';"),
    denied('replication/x.ts', "import { app } from 'electron';"),
    denied('protocol/x.ts', "import { a } from '../journal/findings';"),
    denied('renderer/x.ts', "import { a } from '../journal/findings';"),
    // test files get test tools and Node, but still no other layer
    denied('engine/x.test.ts', "import { a } from '../station/x';"),
    denied('renderer/x.test.ts', "import { a } from '../hardware/x';"),
    // the renderer's tests may reach the station's kernel only through its in-process harness
    denied('renderer/views/X.test.ts', "import { ConsoleService } from '../../station/service/service';"),
    denied('renderer/views/X.test.ts', "import { dispatch } from '../../station/ipc/validate';"),
    denied('renderer/testing/x.ts', "import { ConsoleService } from '../../station/service/service';"),
    denied('renderer/views/X.test.ts', "import { a } from '../../station/testing/other';"),
    // and only tests: the screens themselves never
    denied('renderer/views/X.ts', "import { startInProcessStation } from '../../station/testing/inProcessApi';"),
    denied('renderer/views/X.vue', "<script setup lang=\"ts\">\nimport { startInProcessStation } from '../../station/testing/inProcessApi';\n</script>"),
    denied('renderer/views/X.ts', "import { createKernelApi } from '../testing/kernelApi';"),
    denied('renderer/views/X.vue', "<script setup lang=\"ts\">\nimport { createKernelApi } from '../testing/kernelApi';\n</script>"),
  ])('%s: %s', async (file, code) => {
    const errors = await layerErrors(code, file);
    expect(errors).toHaveLength(1);
  });
});

describe('layers/boundaries: allowed', () => {
  it.each([
    allowed('engine/x.ts', "import { a } from './cards';"),
    allowed('engine/race/x.ts', "import { a } from '../cards';"),
    allowed('engine/race/x.ts', "import type { A } from '../errors';"),
    allowed('engine/cli/race.ts', "import { readFileSync } from 'node:fs';"),
    allowed('engine/cli/race.ts', "import process from 'node:process';"),
    allowed('engine/cli/race.ts', "import { a } from '../race/race';"),
    allowed('engine/x.test.ts', "import { describe } from 'vitest';\nimport fc from 'fast-check';"),
    allowed('engine/x.test.ts', "import { readFileSync } from 'node:fs';"),
    allowed('hardware/x.ts', "import { a } from '../engine/cards';"),
    allowed('hardware/x.ts', "import { SerialPort } from 'serialport';"),
    allowed('hardware/x.ts', "import { RegexParser } from '@serialport/parser-regex';"),
    allowed('hardware/x.ts', "import { EventEmitter } from 'node:events';"),
    allowed('station/electron/x.ts', "import { app } from 'electron';"),
    allowed('station/electron/x.ts', "import { ConsoleService } from '../service/service';"),
    allowed('station/web/x.ts', "import { ConsoleService } from '../service/service';"),
    allowed('station/x.ts', "import { a } from '../engine/cards';"),
    allowed('station/x.ts', "import { a } from '../hardware/serial';"),
    allowed('station/x.ts', "import { writeFile } from 'node:fs/promises';"),
    allowed('renderer/x.ts', "import { a } from '../engine/cards';"),
    allowed('renderer/stores/x.ts', "import type { Card } from '../../engine/cards';"),
    allowed('renderer/x.ts', "import { ref } from 'vue';\nimport { defineStore } from 'pinia';\nimport { useI18n } from 'vue-i18n';"),
    allowed('renderer/x.ts', "import { API_KEY } from '../protocol/contract';"),
    allowed('station/x.ts', "import { API_KEY } from '../protocol/contract';"),
    allowed('protocol/x.ts', "import { formatCard } from '../engine/cards';"),
    allowed('protocol/x.ts', "import type { ShoeEvent } from '../hardware/events';"),
    allowed('protocol/x.ts', "export { DATA_BITS, PARITIES, STOP_BITS } from '../hardware/lineSettings';"),
    allowed('protocol/x.ts', "import { PARITIES } from '../hardware/lineSettings.ts';"),
    allowed('hardware/profile.ts', "import { PARITIES } from './lineSettings';"),
    allowed('station/x.ts', "import { PARITIES } from '../hardware/lineSettings';"),
    allowed('hardware/lineSettings.ts', "import { CARD_PATTERN } from '../engine/cards';"),
    // The house schema builder is the engine's (pure): a device profile's schema and the protocol's boundaries share it.
    allowed('hardware/profile.ts', "import { object, parse } from '../engine/schema';"),
    allowed('protocol/schema.ts', "export * from '../engine/schema';"),
    allowed('renderer/x.ts', "import type { ConsoleApi } from '../protocol/contract';"),
    allowed('renderer/x.ts', "import { type ConsoleApi } from '../protocol/contract';"),
    allowed('renderer/x.ts', "import App from './App.vue';"),
    allowed('renderer/x.test.ts', "import { mount } from '@vue/test-utils';"),
    allowed('renderer/views/X.test.ts', "import { startInProcessStation } from '../../station/testing/inProcessApi';"),
    allowed('renderer/testing/kernelApi.ts', "import { startInProcessStation, type InProcessStation } from '../../station/testing/inProcessApi';"),
    allowed('renderer/views/X.test.ts', "import { createKernelApi } from '../testing/kernelApi';"),
    allowed('renderer/testing/setup.ts', "import { stationsIdle } from './kernelApi';"),
    allowed('renderer/Widget.vue', "<script setup lang=\"ts\">\nimport { ref } from 'vue';\nimport { a } from '../engine/cards';\n</script>"),
    allowed('floor/fold.ts', "import { SessionReplay } from '../replay/session';"),
    allowed('floor/fold.ts', "import type { JournalLine } from '../journal/read';"),
    allowed('floor/server.ts', "import { allowedHosts } from '../net/hosts';"),
    allowed('floor/cli.ts', "import { syncStation } from '../replication/sync';"),
    allowed('floor/cli.ts', "import { isTableName } from '../protocol/tableName';"),
    allowed('floor/x.ts', "import pg from 'pg';\nimport { createHash } from 'node:crypto';"),
    allowed('station/service/x.ts', "import { SessionReplay } from '../../replay/session';"),
    allowed('station/floorLink/x.ts', "import { pushRecords } from '../../replication/push';"),
    allowed('station/web/x.ts', "import { keyMatches } from '../../net/keys';"),
    allowed('journal/x.ts', "import { createHash } from 'node:crypto';"),
    allowed('journal/findings.ts', "import type { Message } from '../engine/messages';"),
    allowed('replay/x.ts', "import { applyRaceEvent } from '../engine/race/race';\nimport type { HistoryEntry } from '../protocol/contract';\nimport { chainOf } from '../journal/findings';"),
    allowed('replication/x.ts', "import pg from 'pg';\nimport { kindOfLine } from '../journal/read';"),
    allowed('protocol/x.ts', "import type { JournalFinding } from '../journal/findings';"),
    allowed('system/x.test.ts', "import { ConsoleService } from '../station/service/service';\nimport { migrate } from '../floor/db/migrate';"),
    allowed('e2e/x.spec.ts', "import { test } from '@playwright/test';\nimport { a } from '../station/x';"),
    allowed('scripts/x.ts', "import { a } from '../station/x';"),
  ])('%s: %s', async (file, code) => {
    expect(await layerErrors(code, file)).toEqual([]);
  });
});

describe('layers/boundaries: messages', () => {
  it('names the layer, the specifier and where it may import from', async () => {
    const [message] = await layerErrors("import { a } from '../station/x';", 'engine/x.ts');
    expect(message).toContain("engine/ may not import '../station/x'");
    expect(message).toContain('docs/architecture.md');
  });
});

describe('engine purity', () => {
  it('forbids host globals in engine/ but not in engine/cli/', async () => {
    const code = 'export const argv = process.argv;';
    const [core] = await eslint.lintText(code, { filePath: 'engine/x.ts' });
    const [cli] = await eslint.lintText(code, { filePath: 'engine/cli/x.ts' });
    expect(core?.messages.map((m) => m.ruleId)).toContain('no-restricted-globals');
    expect(cli?.messages.map((m) => m.ruleId)).not.toContain('no-restricted-globals');
  });
});
