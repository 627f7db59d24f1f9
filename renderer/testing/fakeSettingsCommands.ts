/**
 * The fake service's settings commands (fakeApi.ts) that the tests of states given still send: the
 * settings, the language, the structure and the colour-up's start, checked as station/service
 * checks them. The rest (the break marked, the display's and the counting's settings, the station's
 * clock) are the real kernel's (kernelApi.ts).
 */
import type { CommandResult, ConsoleSettings, Language, SettingsInput } from '../../protocol/contract';
import { tableWithChips } from '../../protocol/colorUp';
import type { StructureInput } from '../../engine/plan/csv';
import { isInputError } from '../../engine/errors';
import { planColorUps } from '../../engine/plan/planner';
import { colorUpOf, push, racedOff, type FakeHandlers, type FakeStation } from './fakeStation';
import { makePlanView } from './fixtures';

type SettingsCommand = 'saveSettings' | 'startColorUp' | 'setLanguage' | 'saveStructure';

export function settingsCommands(station: FakeStation): FakeHandlers<SettingsCommand> {
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

  return {
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
