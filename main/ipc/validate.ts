import { COMMAND_NAMES, HISTORY_PAGE_MAX, LANGUAGES, MAX_SEATS, type CommandError, type CommandName, type CommandResult, type ConsoleCommands, type SeatCount } from '../../protocol/contract';

type Args = readonly unknown[];
type Checked = { readonly ok: true; readonly args: Args } | { readonly ok: false; readonly error: CommandError };

const fail = (field: string, message: string): Checked => ({ ok: false, error: { field, message } });
const pass = (args: Args): Checked => ({ ok: true, args });

function isWhole(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

function checkCounts(value: unknown): Checked {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_SEATS) return fail('counts', `must list 1 to ${MAX_SEATS} seats`);
  const seats = new Set<number>();
  for (const [index, entry] of value.entries()) {
    const count = entry as Partial<SeatCount> | null;
    if (typeof count !== 'object' || count === null) return fail(`counts[${index}]`, 'must be an object');
    if (!isWhole(count.seat, 1, MAX_SEATS)) return fail(`counts[${index}].seat`, `must be a seat from 1 to ${MAX_SEATS}`);
    if (!isWhole(count.chips, 0, 100_000)) return fail(`counts[${index}].chips`, `seat ${count.seat}: the chip count must be a whole number from 0 to 100000`);
    if (typeof count.hasOther !== 'boolean') return fail(`counts[${index}].hasOther`, 'must be true or false');
    if (seats.has(count.seat)) return fail(`counts[${index}].seat`, `seat ${count.seat} appears twice`);
    seats.add(count.seat);
  }
  return pass([value.map((count: SeatCount) => ({ seat: count.seat, chips: count.chips, hasOther: count.hasOther }))]);
}

function checkText(value: unknown, field: string, max: number): Checked {
  if (typeof value !== 'string') return fail(field, 'must be text');
  if (value.length > max) return fail(field, `at most ${max} characters`);
  return pass([value]);
}

/** A race or game id as the service makes them (`race-12`, `game-3`): the screen names what it acts on. */
function checkTarget(value: unknown, field: string): Checked {
  if (typeof value !== 'string' || !/^(race|game)-[1-9][0-9]{0,8}$/.test(value)) return fail(field, 'must name the race or game it is for (race-N or game-N): this screen may be out of date; reload it');
  return pass([value]);
}

/** Checks each in turn, the arguments of those that pass joined into one list. */
function all(...checks: Checked[]): Checked {
  const args: unknown[] = [];
  for (const check of checks) {
    if (!check.ok) return check;
    args.push(...check.args);
  }
  return pass(args);
}

/** How many arguments each command takes, and their shape; the service checks their meaning. */
const COMMANDS: Readonly<Record<CommandName, { readonly arity: number; readonly check: (args: Args) => Checked }>> = {
  getState: { arity: 0, check: () => pass([]) },
  listPorts: { arity: 0, check: () => pass([]) },
  saveSettings: { arity: 1, check: ([settings]) => (typeof settings === 'object' && settings !== null && !Array.isArray(settings) ? pass([settings]) : fail('settings', 'must be an object')) },
  markBreak: { arity: 1, check: ([afterLevel]) => (afterLevel === null || isWhole(afterLevel, 1, 10_000) ? pass([afterLevel]) : fail('afterLevel', 'must be the level the break follows, or null when the tournament is playing')) },
  startColorUp: {
    arity: 2,
    check: ([afterLevel, removed]) => {
      if (!isWhole(afterLevel, 1, 10_000)) return fail('afterLevel', 'must be the level the break follows: this screen may be out of date; reload it');
      return isWhole(removed, 1, Number.MAX_SAFE_INTEGER) ? pass([afterLevel, removed]) : fail('removed', 'must be the chip the race takes off');
    },
  },
  setLanguage: { arity: 1, check: ([language]) => ((LANGUAGES as readonly unknown[]).includes(language) ? pass([language]) : fail('language', `choose one of ${LANGUAGES.join(', ')}`)) },
  // The structure's meaning is the planner's to check (engine/plan); here only its shape and size.
  saveStructure: {
    arity: 1,
    check: ([structure]) => (typeof structure === 'object' && structure !== null && !Array.isArray(structure) && JSON.stringify(structure).length <= 256 * 1024 ? pass([structure]) : fail('structure', 'must be a tournament structure: a JSON object of at most 256 KB')),
  },
  previewRace: { arity: 1, check: ([counts]) => checkCounts(counts) },
  startRace: { arity: 1, check: ([counts]) => checkCounts(counts) },
  dealCard: { arity: 2, check: ([target, code]) => all(checkTarget(target, 'target'), checkText(code, 'card', 32)) },
  dealScan: { arity: 2, check: ([target, raw]) => all(checkTarget(target, 'target'), checkText(raw, 'scan', 256)) },
  voidCards: {
    arity: 3,
    check: ([raceId, count, reason]) => {
      if (!isWhole(count, 1, 1000)) return all(checkTarget(raceId, 'race'), fail('count', 'the number of cards to void must be a whole number of at least 1'));
      return all(checkTarget(raceId, 'race'), pass([count]), checkText(reason ?? '', 'reason', 200));
    },
  },
  confirmRace: { arity: 1, check: ([raceId]) => checkTarget(raceId, 'race') },
  abandonRace: { arity: 2, check: ([raceId, reason]) => all(checkTarget(raceId, 'race'), checkText(reason ?? '', 'reason', 200)) },
  takeHeldCard: { arity: 2, check: ([target, heldId]) => all(checkTarget(target, 'target'), isWhole(heldId, 1, Number.MAX_SAFE_INTEGER) ? pass([heldId]) : fail('held', 'must name the held card')) },
  discardHeldCard: { arity: 2, check: ([target, heldId]) => all(checkTarget(target, 'target'), isWhole(heldId, 1, Number.MAX_SAFE_INTEGER) ? pass([heldId]) : fail('held', 'must name the held card')) },
  exportHistory: { arity: 1, check: ([format]) => (format === 'csv' || format === 'json' ? pass([format]) : fail('format', 'must be csv or json')) },
  historyPage: {
    arity: 2,
    check: ([before, count]) => {
      if (before !== null && !isWhole(before, 0, Number.MAX_SAFE_INTEGER)) return fail('before', 'must be a race number, or null for the latest');
      if (!isWhole(count, 1, HISTORY_PAGE_MAX)) return fail('count', `must be a whole number from 1 to ${HISTORY_PAGE_MAX}`);
      return pass([before, count]);
    },
  },
  raceRecord: { arity: 1, check: ([raceId]) => checkTarget(raceId, 'race') },
  importProfile: {
    arity: 1,
    // The profile's meaning is the hardware reader's to check (readProfile); here only its size.
    check: ([profile]) => (typeof profile === 'object' && profile !== null && !Array.isArray(profile) && JSON.stringify(profile).length <= 64 * 1024 ? pass([profile]) : fail('profile', 'must be a device profile: a JSON object of at most 64 KB')),
  },
  registerDeck: { arity: 1, check: ([name]) => (name === null ? pass([null]) : checkText(name, 'name', 40)) },
  startGame: {
    arity: 2,
    check: ([game, players]) => {
      if (game !== 'pistepokeri' && game !== 'chicago') return fail('game', 'must be pistepokeri or chicago');
      if (!Array.isArray(players) || players.length < 2 || players.length > 6) return fail('players', 'must list 2 to 6 players');
      if (players.some((player) => typeof player !== 'string' || player.length > 40)) return fail('players', 'each player is a name of at most 40 characters');
      return pass([game, players]);
    },
  },
  gameAction: { arity: 2, check: ([gameId, action]) => all(checkTarget(gameId, 'game'), checkGameAction(action)) },
  closeGame: { arity: 2, check: ([gameId, reason]) => all(checkTarget(gameId, 'game'), checkText(reason ?? '', 'reason', 200)) },
};

function checkGameAction(value: unknown): Checked {
  const action = value as { type?: unknown; cards?: unknown; player?: unknown } | null;
  if (typeof action !== 'object' || action === null) return fail('action', 'must be an object with a type');
  switch (action.type) {
    case 'discard':
      if (!Array.isArray(action.cards) || action.cards.length > 5 || action.cards.some((card) => typeof card !== 'string' || card.length > 32)) {
        return fail('action.cards', 'must list at most 5 card codes');
      }
      return pass([{ type: 'discard', cards: action.cards }]);
    case 'call':
      return typeof action.player === 'string' && action.player.length <= 40 ? pass([{ type: 'call', player: action.player }]) : fail('action.player', 'must be a player name');
    case 'end-exchanges':
    case 'next-deal':
      return pass([{ type: action.type }]);
    default:
      return fail('action.type', 'must be discard, end-exchanges, call or next-deal');
  }
}

/**
 * Checks one incoming call (from IPC or the WebSocket bridge): a known command, the right number
 * and shape of arguments. Nothing else reaches the service.
 */
export function checkCall(method: unknown, args: unknown): Checked & { method?: CommandName } {
  if (typeof method !== 'string' || !(COMMAND_NAMES as readonly string[]).includes(method)) return fail('method', `unknown command ${JSON.stringify(method)}`);
  if (!Array.isArray(args)) return fail('args', 'must be a list');
  const name = method as CommandName;
  const { arity, check } = COMMANDS[name];
  if (args.length > arity) return fail('args', `${name} takes ${arity} argument${arity === 1 ? '' : 's'}, got ${args.length}`);
  return { ...check(args), method: name };
}

export type CommandTarget = { readonly [Name in CommandName]: (...args: never[]) => ReturnType<ConsoleCommands[Name]> | Promise<ReturnType<ConsoleCommands[Name]>> };

/** Validates a call and runs it on the service; a refused call never reaches it. */
export async function dispatch(target: CommandTarget, method: unknown, args: unknown): Promise<unknown> {
  const checked = checkCall(method, args);
  if (!checked.ok || checked.method === undefined) return { ok: false, error: checked.ok ? { field: 'method', message: 'unknown command' } : checked.error } satisfies CommandResult<never>;
  const handler = target[checked.method] as (...args: readonly unknown[]) => unknown;
  return handler.apply(target, [...checked.args]);
}
