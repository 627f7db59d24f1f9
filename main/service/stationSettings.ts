import { join } from 'node:path';
import type { ConsoleSettings } from '../../protocol/contract';
import { countsTableKey } from './countDrafts';
import { SaveError } from './failures';
import { saveSettings } from './settings';

/** The settings file in the data folder (its copies set aside and its temporary start with this name). */
export const SETTINGS_FILE = 'settings.json';

/**
 * The station's settings and their one write path: the file written atomically, then kept; a
 * write the disk refuses changes nothing (a SaveError). Told when the table changed (its seats or
 * chips: the counts typed for it are not this table's any more).
 */
export class StationSettings {
  constructor(
    private readonly dataDir: string,
    private settings: ConsoleSettings,
    private readonly tableChanged: () => Promise<void>,
  ) {}

  get current(): ConsoleSettings {
    return this.settings;
  }

  async store(settings: ConsoleSettings): Promise<void> {
    await saveSettings(join(this.dataDir, SETTINGS_FILE), settings).catch((error: unknown) => {
      throw new SaveError('settings', error);
    });
    const changed = countsTableKey(settings.table) !== countsTableKey(this.settings.table);
    this.settings = settings;
    if (changed) await this.tableChanged();
  }
}
