import process from 'node:process';
import { availablePorts, serialCardSources } from './cardSources';
import type { ServiceOptions } from './serviceOptions';

/**
 * The service as the app runs it: real serial ports, the journal sealed with the key that
 * CHIP_RACE_JOURNAL_KEY names, if any, and the floor link CHIP_RACE_DATABASE_URL and
 * CHIP_RACE_TABLE set up (both, or the settings screen's). Shared by the Electron app and browser mode.
 */
export function consoleServiceOptions(dataDir: string, env: NodeJS.ProcessEnv = process.env, extra: Partial<ServiceOptions> = {}): ServiceOptions {
  const keyFile = env.CHIP_RACE_JOURNAL_KEY;
  const floorUrl = env.CHIP_RACE_DATABASE_URL;
  const floorTable = env.CHIP_RACE_TABLE;
  return {
    dataDir,
    cardSources: serialCardSources,
    listPorts: availablePorts,
    ...(keyFile ? { journalKeyFile: keyFile } : {}),
    // The table's name composed (NFC) as the floor files it (protocol/tableName.ts): checked where the station opens.
    ...(floorUrl && floorTable ? { floor: { url: floorUrl, table: floorTable.normalize('NFC') } } : {}),
    ...extra,
  };
}
