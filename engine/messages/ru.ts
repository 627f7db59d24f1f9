import { ruEngine } from './ru/engine';
import { ruConsole } from './ru/console';
import { ruDevices } from './ru/devices';
import type { EngineCatalog } from './en';

/** What the engine says, in Russian (the keys of en.ts; plurals `one | few | many`). */
export const ru: EngineCatalog = { ...ruEngine, ...ruConsole, ...ruDevices };
