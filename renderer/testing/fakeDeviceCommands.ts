/** The fake service's card-source commands (fakeApi.ts): ports listed, a profile file imported, an RFID deck registered, a reader's settings looked for. */
import { push, type FakeHandlers, type FakeStation } from './fakeStation';
import { makeProfileInfo } from './fixtures';

/** A stored profile's or a deck's name, as the service's rule has it. */
const STORED_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/;
const nameRule = (name: string) => `must be 1 to 40 letters, digits, ".", "_" or "-", starting with a letter or digit (got ${JSON.stringify(name)})`;

export function deviceCommands(station: FakeStation): FakeHandlers<'listPorts' | 'importProfile' | 'registerDeck' | 'mapSeats' | 'detectReader'> {
  return {
    listPorts: () => ({ ok: true, value: station.options.ports ?? [] }),
    importProfile: (profile: unknown) => {
      // As the service reads a profile file (hardware's readProfile, then the stored name's rule).
      if (typeof profile !== 'object' || profile === null || Array.isArray(profile)) return { ok: false, error: { field: 'profile', message: 'must be a JSON object with "framing" and "decoder"' } };
      const file = profile as Record<string, unknown>;
      const framing = file.framing as { kind?: unknown } | undefined;
      if (typeof framing !== 'object' || framing === null) return { ok: false, error: { field: 'profile.framing', message: 'must be an object with a "kind": lines, stx-etx, silence or binary' } };
      if (!['lines', 'stx-etx', 'silence'].includes(String(framing.kind))) {
        return { ok: false, error: { field: 'profile.framing.kind', message: `unknown framing ${JSON.stringify(framing.kind)}; choose lines, stx-etx, silence or binary` } };
      }
      const name = typeof file.name === 'string' ? file.name.trim() : 'custom';
      if (!STORED_NAME.test(name)) return { ok: false, error: { field: 'profile.name', message: nameRule(name) } };
      const { current } = station;
      if (current.profiles.some((entry) => entry.builtIn && entry.name === name)) return { ok: false, error: { field: 'profile.name', message: `"${name}" is the name of a built-in profile: give yours another` } };
      const info = makeProfileInfo({ ...file, name });
      push(station, { ...current, profiles: [...current.profiles.filter((entry) => entry.name !== name), info] });
      return { ok: true, value: info };
    },
    registerDeck: (name: string | null) => {
      // As the service checks it (station/service/), on the saved card source.
      const { current } = station;
      if (name === null) {
        if (current.registration !== null) push(station, { ...current, registration: null });
        return { ok: true, value: null };
      }
      if (station.race !== null) return { ok: false, error: { field: 'race', message: `race ${current.race?.id ?? ''} is open: register the deck between races` } };
      const { source } = current.settings;
      if (source.kind !== 'serial' || source.path === '') return { ok: false, error: { field: 'source', message: 'register the deck with the reader connected: choose the serial card source and its port first' } };
      const base = current.profiles.find((entry) => entry.name === source.decoder);
      if ((base?.profile.decoder as { kind?: unknown } | undefined)?.kind !== 'uid') {
        return { ok: false, error: { field: 'source.decoder', message: `the profile ${source.decoder} does not read RFID tags: choose rfid (or a profile that reads tag IDs) first` } };
      }
      if (!STORED_NAME.test(name)) return { ok: false, error: { field: 'name', message: nameRule(name) } };
      push(station, { ...current, registration: { name, registered: 0, total: 52, next: 'As', problem: null } });
      return { ok: true, value: null };
    },
    mapSeats: (start: boolean) => {
      // As the service checks it (station/service/profileCommands.ts), on the saved card source.
      const { current } = station;
      if (!start) {
        if (current.seatMapping !== null) push(station, { ...current, seatMapping: null });
        return { ok: true, value: null };
      }
      if (station.race !== null) return { ok: false, error: { field: 'race', message: `race ${current.race?.id ?? ''} is open: map the antennas between races` } };
      const { source, table } = current.settings;
      if (source.kind !== 'serial' || source.path === '') return { ok: false, error: { field: 'source', message: 'map the antennas with the reader connected: choose the serial card source and its port first' } };
      const seats = table.seats.map(({ seat }) => seat).sort((a, b) => a - b);
      push(station, { ...current, seatMapping: { name: source.decoder, seats, readers: {}, next: seats[0] ?? null, problem: null } });
      return { ok: true, value: null };
    },
    detectReader: (start: boolean) => {
      // As the service checks it; how far it comes and what it finds, a test pushes itself.
      const { current } = station;
      if (!start) {
        if (current.detection !== null) push(station, { ...current, detection: current.detection.state === 'listening' ? { ...current.detection, state: 'done', setting: null } : null });
        return { ok: true, value: null };
      }
      const { source } = current.settings;
      if (source.kind !== 'serial' || source.path === '') return { ok: false, error: { field: 'source', message: 'choose the serial card source and its port first' } };
      push(station, { ...current, detection: { state: 'listening', path: source.path, tried: 0, total: 0, setting: null, found: [], problem: null } });
      return { ok: true, value: null };
    },
  };
}
