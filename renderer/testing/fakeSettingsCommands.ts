/**
 * The fake service's settings commands (fakeApi.ts): the settings, the language, the structure,
 * the break marked and its colour-up, and the station's own clock, checked as station/service checks them.
 */
import { displaySettingsOf, type CommandResult, type ConsoleSettings, type DisplaySettings, type Language, type SettingsInput } from '../../protocol/contract';
import { tableWithChips } from '../../protocol/colorUp';
import { scheduleOf } from '../../protocol/clock';
import type { StructureInput } from '../../engine/plan/csv';
import { isInputError } from '../../engine/errors';
import { planColorUps } from '../../engine/plan/planner';
import { adjustForMinutesLeft, foldClock, type ClockEvent } from '../../engine/clock/clock';
import { colorUpOf, push, racedOff, refused, type FakeHandlers, type FakeStation } from './fakeStation';
import { makePlanView } from './fixtures';

type SettingsCommand = 'saveSettings' | 'markBreak' | 'startColorUp' | 'setLanguage' | 'setClockSound' | 'setResultMinutes' | 'setCountStack' | 'saveStructure' | 'clockStart' | 'clockPause' | 'clockResume' | 'clockAdjust';

const NO_STRUCTURE: CommandResult<never> = { ok: false, error: { field: 'tournament', message: 'no tournament structure is saved: save the structure first' } };

export function settingsCommands(station: FakeStation): FakeHandlers<SettingsCommand> {
  /** One of the player display's settings, the rest kept (as settingsCommands.ts's setDisplay). */
  function setDisplay<K extends keyof DisplaySettings>(key: K, value: DisplaySettings[K]): CommandResult {
    const display = displaySettingsOf(station.current.settings);
    return value === display[key] ? { ok: true, value: null } : saveAll({ ...station.current.settings, display: { ...display, [key]: value } });
  }

  /** Settings as the service checks them (station/service/settings.ts); `accepted` runs once they are taken. */
  function saveAll(settings: ConsoleSettings, accepted?: () => void): CommandResult {
    const { current } = station;
    // The structure as the service checks it: planned, or refused naming the field (the message is
    // the reason alone, as for every InputError the service refuses).
    const tournament = settings.tournament;
    if (tournament?.structure) {
      let moments: readonly number[];
      try {
        moments = planColorUps(tournament.structure).moments;
      } catch (error) {
        if (isInputError(error)) return { ok: false, error: { field: `tournament.structure.${error.field}`, message: error.reason } };
        throw error;
      }
      if (tournament.atBreakAfter !== null && !moments.includes(tournament.atBreakAfter)) {
        return { ok: false, error: { field: 'tournament.atBreakAfter', message: `level ${tournament.atBreakAfter} is not followed by a break in the structure` } };
      }
    }
    if (!current.profiles.some((entry) => entry.name === settings.source.decoder)) {
      return { ok: false, error: { field: 'source.decoder', message: `there is no device profile "${settings.source.decoder}": choose a built-in one, or import the profile file first` } };
    }
    if (current.registration !== null && JSON.stringify(settings.source) !== JSON.stringify(current.settings.source)) {
      return { ok: false, error: { field: 'source', message: 'a deck is being registered on this card source: finish or stop the registration first' } };
    }
    accepted?.();
    push(station, { ...current, settings, plan: tournament === undefined ? current.plan : makePlanView(tournament), colorUp: colorUpOf(station, settings, current.race?.id ?? null) });
    return { ok: true, value: null };
  }

  /** The station's own clock as the service runs it (station/service/clock.ts): an event at the page's time, refused out of order. */
  function clockEvent(make: (at: number) => ClockEvent): CommandResult {
    const { current } = station;
    const { schedule, problem } = scheduleOf(current.settings.tournament?.structure ?? null);
    if (schedule === null) return problem === null ? NO_STRUCTURE : { ok: false, error: { field: 'tournament', message: 'a level has no length in minutes' } };
    const event = make(Date.now());
    const events = event.type === 'start' && current.clock.events.length === 0 ? [event] : [...current.clock.events, event];
    try {
      foldClock(events, schedule.totalMs);
    } catch (error) {
      return refused(error);
    }
    push(station, { ...current, clock: { source: 'local', schedule, events, problem: null } });
    return { ok: true, value: null };
  }

  return {
    clockStart: () => clockEvent((at) => ({ type: 'start', at })),
    clockPause: () => clockEvent((at) => ({ type: 'pause', at })),
    clockResume: () => clockEvent((at) => ({ type: 'resume', at })),
    clockAdjust: (minutes: number) => clockEvent((at) => ({ type: 'adjust', at, by: adjustForMinutesLeft(minutes) })),
    saveSettings: (input: SettingsInput) => {
      // What the screen left out stays as saved; a kept structure takes the table's chips (kept once).
      const kept = station.current.settings.tournament;
      const settings: ConsoleSettings = {
        ...input,
        language: input.language ?? station.current.settings.language,
        tournament: input.tournament ?? (kept?.structure ? { ...kept, structure: { ...kept.structure, chips: input.table.chipSet } } : kept),
        display: input.display ?? station.current.settings.display,
      };
      return saveAll(settings);
    },
    markBreak: (afterLevel: number | null) => {
      const tournament = station.current.settings.tournament;
      if (!tournament?.structure) return NO_STRUCTURE;
      return saveAll({ ...station.current.settings, tournament: { ...tournament, atBreakAfter: afterLevel } }, () => {
        station.marked = { afterLevel, races: new Map(), done: [] };
      });
    },
    startColorUp: (afterLevel: number, removed: number) => {
      const { current } = station;
      if (current.settings.tournament?.atBreakAfter !== afterLevel) return { ok: false, error: { field: 'afterLevel', message: `the tournament is not on the break after level ${afterLevel}: this screen was out of date` } };
      if (station.race !== null) return { ok: false, error: { field: 'race', message: `race ${current.race?.id ?? ''} is still open: confirm or abandon it first` } };
      const step = current.plan?.proposal?.races.find((entry) => entry.removed === removed);
      if (step === undefined) return { ok: false, error: { field: 'removed', message: `the colour-up after level ${afterLevel} has no race taking ${removed} off` } };
      const refusal = racedOff(station, removed);
      if (refusal !== null) return refusal;
      return saveAll({ ...current.settings, table: { ...current.settings.table, removed: step.removed, next: step.next } });
    },
    setLanguage: (language: Language) => (language === station.current.settings.language ? { ok: true, value: null } : saveAll({ ...station.current.settings, language })),
    setClockSound: (on: boolean) => setDisplay('clockSound', on),
    setResultMinutes: (minutes: number) => setDisplay('resultMinutes', minutes),
    setCountStack: (stack: number) => saveAll({ ...station.current.settings, counting: { stack } }),
    saveStructure: (structure: StructureInput) => {
      const { settings } = station.current;
      const at = settings.tournament?.atBreakAfter ?? null;
      const moments = (() => {
        try {
          return planColorUps(structure).moments;
        } catch {
          return [];
        }
      })();
      const table = Array.isArray(structure.chips) ? tableWithChips(settings.table, structure.chips) : settings.table;
      return saveAll({ ...settings, table, tournament: { structure, atBreakAfter: at !== null && moments.includes(at) ? at : null } });
    },
  };
}
