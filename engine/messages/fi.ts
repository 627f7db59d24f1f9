import { fiEngine } from './fi/engine';
import { fiConsole } from './fi/console';
import { fiDevices } from './fi/devices';
import type { EngineCatalog } from './en';

/** What the engine says, in Finnish (the keys of en.ts), joined from its parts in fi/. */
export const fi: EngineCatalog = { ...fiEngine, ...fiConsole, ...fiDevices };
