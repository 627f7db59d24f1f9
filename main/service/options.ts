import process from 'node:process';
import { availablePorts, serialCardSources } from './cardSources';
import type { ServiceOptions } from './service';

/**
 * The service as the app runs it: real serial ports, and the journal sealed with the key that
 * CHIP_RACE_JOURNAL_KEY names, if any. Shared by the Electron app and browser mode.
 */
export function consoleServiceOptions(dataDir: string, env: NodeJS.ProcessEnv = process.env, extra: Partial<ServiceOptions> = {}): ServiceOptions {
  const keyFile = env.CHIP_RACE_JOURNAL_KEY;
  return { dataDir, cardSources: serialCardSources, listPorts: availablePorts, ...(keyFile ? { journalKeyFile: keyFile } : {}), ...extra };
}
