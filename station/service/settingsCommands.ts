import type { SourceControl, StationView } from './ports';
import { isInputError } from '../../engine/errors';
import type { StructureInput } from '../../engine/plan/csv';
import { SETTING_NAMES } from '../../engine/race/rules';
import { isRecord } from '../../engine/validate';
import { tableWithChips } from '../../protocol/colorUp';
import { countingSettingsOf, displaySettingsOf, type CommandResult, type DisplaySettings, type ConsoleSettings, type Language, type SettingsInput } from '../../protocol/contract';
import { stillOpen } from './commandContext';
import { ok, refused } from './failures';
import { changesFloorSeats } from './floorSeats';
import { changesFloorTournament } from './floorTournament';
import { racedOffRefusal } from './racedOff';
import type { Kernel } from './kernel';
import type { ReaderSession } from './readerMode';
import { readSettings, requireSeats, withKeptPassword } from './settings';
import type { StationSettings } from './stationSettings';

/** The settings' card source without the scanner's profile: what the shoe's port is opened with. */
/**
 * The table a screen saves, with the race settings chosen on their own (rounding, dealStart,
 * protection, award) kept as saved where the screen leaves them out, as a screen that does not edit
 * them does; a null given clears one (the rule set's again).
 */
function withKeptChoices(table: unknown, saved: ConsoleSettings['table']): unknown {
  if (!isRecord(table)) return table;
  const kept: Record<string, unknown> = { ...table };
  for (const name of SETTING_NAMES) if (kept[name] === undefined && saved[name] !== undefined) kept[name] = saved[name];
  return kept;
}

function shoeOf(settings: ConsoleSettings): Omit<ConsoleSettings['source'], 'scanner'> {
  const { scanner: _scanner, ...shoe } = settings.source;
  return shoe;
}

/** What the settings' commands need of the rest of the console. */
export interface SettingsHooks {
  /** The station as it stands (the session, the plan). */
  readonly view: Pick<StationView, 'session' | 'plan'>;
  /** The device profiles (a source's decoder or scanner names one). */
  readonly profiles: { has(name: string): boolean };
  /** The card reader's mode: a deck being registered, or its antennas mapped to seats, keeps the card source as it is. */
  readonly reader: ReaderSession;
  /** The card source closed and opened again on the settings' source. */
  readonly source: SourceControl;
  /** The floor link started, restarted or stopped as the settings now say. */
  readonly floor: { follow(): Promise<void> };
}

/**
 * The settings' commands: the whole settings saved (what a screen leaves out kept), and the
 * screens' intents, each changing its one part on the settings the station holds now, so a screen
 * that is behind (a second window) cannot undo another's change.
 */
export class SettingsCommands {
  constructor(
    private readonly kernel: Kernel,
    private readonly settings: StationSettings,
    private readonly hooks: SettingsHooks,
  ) {}

  saveSettings(value: SettingsInput): Promise<CommandResult> {
    return this.kernel.serial(async () => {
      // A table set up keeps a seat in play (only a console never set up has none).
      const settings = requireSeats(readSettings(this.withKept(value)), this.settings.current);
      if (changesFloorTournament(this.settings.current, settings)) return refused('table', { key: 'service.fromFloor.tournament' });
      if (changesFloorSeats(this.settings.current, settings)) return refused('table.seats', { key: 'service.fromFloor.seats' });
      const { scanner } = settings.source;
      for (const [field, name] of [['source.decoder', settings.source.decoder], ['source.scanner', scanner]] as const) {
        if (name !== undefined && !this.hooks.profiles.has(name)) return refused(field, { key: 'service.noProfile', params: { name } });
      }
      // The shoe's port: the scanner's profile is no part of it (a scan opens no port).
      const sourceChanged = JSON.stringify(shoeOf(settings)) !== JSON.stringify(shoeOf(this.settings.current));
      // Finding the reader's settings opens the source as the settings then say: only a registration or a mapping refuses a new one.
      if (sourceChanged && !this.hooks.reader.is('detecting')) {
        const busy = this.hooks.reader.busy('source');
        if (busy !== null) return busy;
      }
      await this.settings.store(settings);
      if (sourceChanged) {
        await this.hooks.source.reopenSource();
      }
      await this.hooks.floor.follow();
      this.kernel.publish();
      return ok(null);
    });
  }

  /**
   * What a screen that edits neither the language nor the tournament leaves out, kept as saved; the
   * kept structure takes the chips of the table given (the chip set is kept once, in the table).
   */
  private withKept(value: SettingsInput): unknown {
    if (typeof value !== 'object' || value === null) return value;
    const { language, tournament, floor, display, counting, fromFloor, seatsFromFloor } = this.settings.current;
    const kept = tournament?.structure ? { ...tournament, structure: { ...tournament.structure, chips: undefined } } : tournament;
    const given = (value as { floor?: unknown }).floor;
    return {
      ...value,
      table: withKeptChoices(value.table, this.settings.current.table),
      language: value.language ?? language,
      // The floor's tournament is the service's to take and give back: a screen never sets it.
      tournament: value.tournament === undefined || fromFloor !== undefined ? kept : value.tournament,
      floor: given === undefined ? floor : withKeptPassword(given, floor),
      display: value.display ?? display,
      counting: value.counting ?? counting,
      fromFloor,
      // The floor's seating likewise: the station's own seats stay kept aside.
      seatsFromFloor,
    };
  }

  markBreak(afterLevel: number | null): Promise<CommandResult> {
    return this.kernel.serial(async () => {
      const tournament = this.settings.current.tournament;
      if (!tournament?.structure) return refused('tournament', { key: 'service.noStructure' });
      const settings = readSettings({ ...this.settings.current, tournament: { ...tournament, atBreakAfter: afterLevel } });
      // On the journal first: the colour-up of a break marked afresh starts from its first race.
      await this.kernel.save({ kind: 'break-marked', afterLevel });
      await this.settings.store(settings);
      this.kernel.publish();
      return ok(null);
    });
  }

  startColorUp(afterLevel: number, removed: number): Promise<CommandResult> {
    return this.kernel.serial(async () => {
      const at = this.settings.current.tournament?.atBreakAfter ?? null;
      if (at !== afterLevel) return refused('afterLevel', at === null ? { key: 'service.colorUp.notOnBreak', params: { level: afterLevel } } : { key: 'service.colorUp.otherBreak', params: { at, level: afterLevel } });
      const busy = stillOpen(this.hooks.view.session());
      if (busy !== null) return busy;
      const proposal = this.hooks.view.plan()?.proposal ?? null;
      const step = proposal?.races.find((race) => race.removed === removed);
      if (proposal === null || step === undefined) return refused('removed', { key: 'service.colorUp.noRace', params: { level: afterLevel, removed } });
      const racedOff = racedOffRefusal(this.settings.current, this.kernel.followers.colorUps, removed);
      if (racedOff !== null) return racedOff;
      await this.settings.store(readSettings({ ...this.settings.current, table: { ...this.settings.current.table, removed: step.removed, next: step.next } }));
      this.kernel.publish();
      return ok(null);
    });
  }

  setLanguage(language: Language): Promise<CommandResult> {
    return this.kernel.serial(async () => {
      if (language === this.settings.current.language) return ok(null);
      await this.settings.store(readSettings({ ...this.settings.current, language }));
      this.kernel.publish();
      return ok(null);
    });
  }

  /** Whether the room's clock on the player display sounds at a level or break change. */
  setClockSound(on: boolean): Promise<CommandResult> {
    return this.setDisplay('clockSound', on);
  }

  /** How many minutes the player display keeps a confirmed race's result. */
  setResultMinutes(minutes: number): Promise<CommandResult> {
    return this.setDisplay('resultMinutes', minutes);
  }

  /** The chips in a stack where the house counts in stacks (0: none). */
  setCountStack(stack: number): Promise<CommandResult> {
    return this.kernel.serial(async () => {
      const counting = countingSettingsOf(this.settings.current);
      if (stack === counting.stack) return ok(null);
      await this.settings.store(readSettings({ ...this.settings.current, counting: { ...counting, stack } }));
      this.kernel.publish();
      return ok(null);
    });
  }

  /** One of the player display's settings, the rest kept: stored and published only when it changes. */
  private setDisplay<K extends keyof DisplaySettings>(key: K, value: DisplaySettings[K]): Promise<CommandResult> {
    return this.kernel.serial(async () => {
      const display = displaySettingsOf(this.settings.current);
      if (value === display[key]) return ok(null);
      await this.settings.store(readSettings({ ...this.settings.current, display: { ...display, [key]: value } }));
      this.kernel.publish();
      return ok(null);
    });
  }

  saveStructure(structure: StructureInput): Promise<CommandResult> {
    return this.kernel.serial(async () => {
      if (this.settings.current.fromFloor !== undefined) return refused('tournament', { key: 'service.fromFloor.tournament' });
      const chips = (structure as { chips?: unknown }).chips;
      // The structure's chips become the table's; the planner checks them with the rest (below).
      const table = Array.isArray(chips) && chips.every((chip) => typeof chip === 'number') ? tableWithChips(this.settings.current.table, [...chips].sort((a, b) => a - b)) : this.settings.current.table;
      const at = this.settings.current.tournament?.atBreakAfter ?? null;
      const tournament = { structure, atBreakAfter: at };
      let settings: ConsoleSettings;
      try {
        settings = readSettings({ ...this.settings.current, table, tournament });
      } catch (error) {
        // The break marked is not one of the new structure's: the tournament is playing.
        if (!isInputError(error) || error.field !== 'tournament.atBreakAfter') throw error;
        settings = readSettings({ ...this.settings.current, table, tournament: { structure, atBreakAfter: null } });
      }
      await this.settings.store(settings);
      this.kernel.publish();
      return ok(null);
    });
  }
}
