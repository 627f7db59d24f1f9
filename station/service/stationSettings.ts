import { join } from 'node:path';
import type { ConsoleSettings } from '../../protocol/contract';
import { sameFloorFact, type FloorFactRecord } from '../../replay/floorRecords';
import { countsTableKey } from './countDrafts';
import { SaveError } from './failures';
import type { FloorFactsView } from './floorFacts';
import { effectiveSettings, floorCopiesOf, ownSettingsOf, type FloorFactsInForce } from './floorOverlay';
import { saveSettings } from './settings';

/** The settings file in the data folder (its copies set aside and its temporary start with this name). */
export const SETTINGS_FILE = 'settings.json';

const factsInForce = (view: FloorFactsView): FloorFactsInForce => ({ tournament: view.tournament.fact, seating: view.seating.fact });

/**
 * The station's settings and their one write path. The file holds the station's own settings
 * only; what the screens and the commands get (`current`) is them overlaid by the floor's facts
 * as the journal holds them (floorOverlay.ts, floorFacts.ts), so a restart knows the floor's
 * tournament and seats with nothing from the file. The file is written atomically, then kept; a
 * write the disk refuses changes nothing (a SaveError). Told when the table changed (its seats or
 * chips: the counts typed for it are not this table's any more).
 */
export class StationSettings {
  private own: ConsoleSettings;
  private settings: ConsoleSettings;

  constructor(
    private readonly dataDir: string,
    /** The settings file as read: an older version's may still hold the floor's copies (migrateFloorCopies). */
    file: ConsoleSettings,
    /** The floor's facts the journal holds (floorFacts.ts). */
    private readonly floorFacts: { readonly current: FloorFactsView },
    /** The counts typed for the next race: cleared when the table changes. */
    private readonly drafts: { clear(): Promise<void> },
  ) {
    // An older file's copies stand until they are journaled (migrateFloorCopies, at start).
    const copies = floorCopiesOf(file) !== null;
    this.own = copies ? ownSettingsOf(file) : file;
    this.settings = copies ? file : effectiveSettings(file, factsInForce(floorFacts.current));
  }

  get current(): ConsoleSettings {
    return this.settings;
  }

  /** Effective settings a command made: the file keeps the station's own part; the floor's facts stay the journal's. */
  async store(settings: ConsoleSettings): Promise<void> {
    const own = ownSettingsOf(settings);
    await saveSettings(join(this.dataDir, SETTINGS_FILE), own).catch((error: unknown) => {
      throw new SaveError('settings', error);
    });
    this.own = own;
    await this.become(effectiveSettings(own, factsInForce(this.floorFacts.current)));
  }

  /**
   * A fact of the floor read (the link's tournament or seating): journaled by `journal` when it is
   * not the one in force, and the settings made again with it. One this table cannot take (the
   * settings refuse it) is not journaled: the table stays as it was. Returns whether it was taken.
   */
  async takeFloorFact(record: FloorFactRecord, journal: (record: FloorFactRecord) => Promise<unknown>): Promise<boolean> {
    const inForce = factsInForce(this.floorFacts.current);
    const facts = record.kind === 'floor-tournament' ? { ...inForce, tournament: record.tournament } : { ...inForce, seating: record.seating };
    if (sameFloorFact(facts.tournament, inForce.tournament) && sameFloorFact(facts.seating, inForce.seating)) return false;
    const next = effectiveSettings(this.own, facts);
    const taken = record.kind === 'floor-tournament' ? (record.tournament === null) === (next.fromFloor === undefined) : (record.seating === null) === (next.seatsFromFloor === undefined);
    if (!taken) return false;
    // Journaled, the follower's facts are `facts`: the settings made with them stand.
    await journal(record);
    await this.become(next);
    return true;
  }

  /**
   * A settings file of an older version held the floor's tournament and seats (`fromFloor`,
   * `seatsFromFloor`): journaled once (those the journal has not already), and the file written
   * again with the station's own only. Nothing when the file holds none.
   */
  async migrateFloorCopies(journal: (record: FloorFactRecord) => Promise<unknown>): Promise<void> {
    const copies = floorCopiesOf(this.settings);
    if (copies === null) return;
    const journaled = this.floorFacts.current;
    if (copies.tournament !== null && journaled.tournament.seq === 0) await journal({ kind: 'floor-tournament', tournament: copies.tournament });
    if (copies.seating !== null && journaled.seating.seq === 0) await journal({ kind: 'floor-seating', seating: copies.seating });
    await this.store(this.settings);
  }

  private async become(next: ConsoleSettings): Promise<void> {
    const changed = countsTableKey(next.table) !== countsTableKey(this.settings.table);
    this.settings = next;
    if (changed) await this.drafts.clear();
  }
}
