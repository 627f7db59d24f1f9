import { COMMAND_NAMES, MAX_SEATS, type CommandError, type CommandName, type CommandResult, type ConsoleCommands, type SeatCount } from './contract';

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

/** The shape of each command's arguments; the service checks their meaning. */
const CHECKS: Readonly<Record<CommandName, (args: Args) => Checked>> = {
  getState: () => pass([]),
  confirmRace: () => pass([]),
  listPorts: () => pass([]),
  saveSettings: ([settings]) => (typeof settings === 'object' && settings !== null && !Array.isArray(settings) ? pass([settings]) : fail('settings', 'must be an object')),
  previewRace: ([counts]) => checkCounts(counts),
  startRace: ([counts]) => checkCounts(counts),
  dealCard: ([code]) => checkText(code, 'card', 32),
  voidCards: ([count, reason]) => {
    if (!isWhole(count, 1, 1000)) return fail('count', 'the number of cards to void must be a whole number of at least 1');
    const text = checkText(reason ?? '', 'reason', 200);
    return text.ok ? pass([count, text.args[0]]) : text;
  },
  abandonRace: ([reason]) => checkText(reason ?? '', 'reason', 200),
  exportHistory: ([format]) => (format === 'csv' || format === 'json' ? pass([format]) : fail('format', 'must be csv or json')),
  startGame: ([game, players]) => {
    if (game !== 'pistepokeri' && game !== 'chicago') return fail('game', 'must be pistepokeri or chicago');
    if (!Array.isArray(players) || players.length < 2 || players.length > 6) return fail('players', 'must list 2 to 6 players');
    if (players.some((player) => typeof player !== 'string' || player.length > 40)) return fail('players', 'each player is a name of at most 40 characters');
    return pass([game, players]);
  },
  gameAction: ([action]) => checkGameAction(action),
  closeGame: ([reason]) => checkText(reason ?? '', 'reason', 200),
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
  const expected = {
    getState: 0, confirmRace: 0, listPorts: 0, saveSettings: 1, previewRace: 1, startRace: 1, dealCard: 1, voidCards: 2, abandonRace: 1, exportHistory: 1,
    startGame: 2, gameAction: 1, closeGame: 1,
  }[name];
  if (args.length > expected) return fail('args', `${name} takes ${expected} argument${expected === 1 ? '' : 's'}, got ${args.length}`);
  return { ...CHECKS[name](args), method: name };
}

export type CommandTarget = { readonly [Name in CommandName]: (...args: never[]) => ReturnType<ConsoleCommands[Name]> | Promise<ReturnType<ConsoleCommands[Name]>> };

/** Validates a call and runs it on the service; a refused call never reaches it. */
export async function dispatch(target: CommandTarget, method: unknown, args: unknown): Promise<unknown> {
  const checked = checkCall(method, args);
  if (!checked.ok || checked.method === undefined) return { ok: false, error: checked.ok ? { field: 'method', message: 'unknown command' } : checked.error } satisfies CommandResult<never>;
  const handler = target[checked.method] as (...args: readonly unknown[]) => unknown;
  return handler.apply(target, [...checked.args]);
}
