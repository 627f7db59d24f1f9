import { availablePorts, serialCardSources } from './cardSources';
import type { ServiceOptions } from './service';

/** The service as the app runs it: real serial ports. Shared by the Electron app and browser mode. */
export function consoleServiceOptions(dataDir: string): ServiceOptions {
  return { dataDir, cardSources: serialCardSources, listPorts: availablePorts };
}
