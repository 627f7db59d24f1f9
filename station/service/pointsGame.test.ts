// The points game through ConsoleService, as the screens drive it: a Chicago royal flush ends the
// game at once (every later card or action refused in the dealer's language, kept on record as a
// game refusal, nothing lost, the journal's replay the same game), and Chicago's house options go
// from the start call (through the argument check) into the journal's start event and back.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENGINE_CATALOGS, formatMessage } from '../../engine/messages';
import { NO_HOUSE_OPTIONS } from '../../engine/poker/rules';
import type { CommandResult } from '../../protocol/contract';
import { dispatch } from '../ipc/validate';
import { ConsoleService } from './service';
import { serviceHarness } from './testing/services';

const clock = () => new Date('2026-12-01T18:00:00Z');
const { serviceIn, restart } = serviceHarness({ clock });

const ok = { ok: true, value: null };
const PLAYERS = ['Anna', 'Ville', 'Sanna'];
/** Ville is dealt the royal flush of spades. */
const HANDS: Record<string, string[]> = { Anna: ['2c', '3c', '4c', '5c', '7d'], Ville: ['Ts', 'Js', 'Qs', 'Ks', 'As'], Sanna: ['2d', '2h', '4d', '5d', '8s'] };

function journalRecords(dataDir: string): Array<Record<string, unknown>> {
  const text = readFileSync(join(dataDir, 'journal.jsonl'), 'utf8').trim();
  return (text === '' ? [] : text.split('\n'))
    .map((line) => JSON.parse(line) as { record?: Record<string, unknown> })
    .flatMap((line) => (line.record === undefined ? [] : [line.record]));
}

function refusalOf(result: unknown): NonNullable<Extract<CommandResult<unknown>, { ok: false }>['error']> {
  const answer = result as CommandResult<unknown>;
  if (answer.ok) throw new Error('the command was not refused');
  return answer.error;
}

async function dealHands(service: ConsoleService): Promise<void> {
  for (let index = 0; index < 5; index += 1) for (const player of PLAYERS) expect(await service.dealCard('game-1', HANDS[player]?.[index] as string)).toEqual(ok);
}

describe('a Chicago royal flush at the console', () => {
  it('ends the game at once: later cards and actions are refused, said in en/fi/ru, kept on record; the replay is the same game', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'points-'));
    const service = await serviceIn(dataDir);
    expect(await dispatch(service, 'startGame', ['chicago', PLAYERS, { chicagoCall: true }])).toEqual(ok);
    await dealHands(service);
    expect(await service.gameAction('game-1', { type: 'end-exchanges' })).toEqual(ok);
    const over = service.getState().game;
    expect(over).toMatchObject({ phase: 'complete', awaiting: null, legal: [], callOpen: false, winner: 'Ville', winReason: 'royal-flush' });
    expect(over?.showdown).toMatchObject({ best: 'Ville', points: 52, royalFlush: true });
    const accepted = journalRecords(dataDir).filter((record) => record.kind === 'game-event').length;

    const card = refusalOf(await service.dealCard('game-1', '9c'));
    expect(card).toMatchObject({ field: 'card', said: { key: 'poker.match.royalFlush', params: { player: 'Ville' } } });
    expect(card.message).toContain('the game is over: Ville has won with a royal flush');
    expect(formatMessage(card.said as never, 'fi', ENGINE_CATALOGS.fi)).toBe('peli on ohi: Ville voitti kuningasvärisuoralla; enempää kortteja tai toimintoja ei oteta vastaan');
    expect(formatMessage(card.said as never, 'ru', ENGINE_CATALOGS.ru)).toBe('игра окончена: победа за игроком Ville — роял-флеш; больше не принимаются ни карты, ни действия');
    for (const action of [{ type: 'call', player: 'Ville' }, { type: 'next-deal' }, { type: 'discard', cards: [] }, { type: 'end-exchanges' }] as const) {
      expect(refusalOf(await dispatch(service, 'gameAction', ['game-1', action])).said?.key).toBe('poker.match.royalFlush');
    }
    // Each refusal is on record as a game refusal (a repeat of the same one counted), none as an accepted event.
    const records = journalRecords(dataDir);
    expect(records.filter((record) => record.kind === 'game-event')).toHaveLength(accepted);
    expect(records.filter((record) => record.kind === 'game-refused').map((record) => record.input)).toEqual(['9c', 'call', 'next-deal', 'discard', 'end-exchanges']);
    expect(service.getState().game).toEqual(over);

    const restarted = await restart(service, dataDir);
    expect(restarted.getState().game).toEqual(over);
    expect(refusalOf(await restarted.dealCard('game-1', '9c')).said?.key).toBe('poker.match.royalFlush');
    // The finished game is closed into the games played, won by Ville.
    expect(await restarted.closeGame('game-1', 'royal flush')).toEqual(ok);
    expect(restarted.getState().games).toEqual([expect.objectContaining({ game: 'chicago', winner: 'Ville', scores: { Anna: 0, Ville: 52, Sanna: 0 } })]);
  });
});

describe("Chicago's house options from the start call", () => {
  it('are journaled with the start event, shown in the game view and replayed; the call works in play', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'points-'));
    const service = await serviceIn(dataDir);
    const options = { handPointsEachExchange: true, chicagoCall: true, buyStop: 42 };
    expect(await dispatch(service, 'startGame', ['chicago', PLAYERS, options])).toEqual(ok);
    expect(journalRecords(dataDir).find((record) => record.kind === 'game-event')).toMatchObject({ event: { type: 'start', game: 'chicago', players: PLAYERS, options } });
    expect(service.getState().game?.options).toEqual(options);
    const hands: Record<string, string[]> = { Anna: ['2c', '3c', '4c', '5c', '7d'], Ville: ['Ah', 'Kh', 'Qh', 'Jh', '9h'], Sanna: ['2d', '2h', '4d', '5d', '8s'] };
    for (let index = 0; index < 5; index += 1) for (const player of PLAYERS) expect(await service.dealCard('game-1', hands[player]?.[index] as string)).toEqual(ok);
    expect(await service.gameAction('game-1', { type: 'end-exchanges' })).toEqual(ok);
    expect(service.getState().game).toMatchObject({ callOpen: true, call: null });
    expect(await dispatch(service, 'gameAction', ['game-1', { type: 'call', player: 'Ville' }])).toEqual(ok);
    expect(service.getState().game).toMatchObject({ callOpen: false, call: 'Ville', awaiting: { step: 'play', player: 'Ville', trick: 1 } });
    const again = refusalOf(await service.gameAction('game-1', { type: 'call', player: 'Anna' }));
    expect(again.said?.key).toBe('poker.call.already');
    expect(formatMessage(again.said as never, 'fi', ENGINE_CATALOGS.fi)).not.toBe(again.message);
    const before = service.getState().game;
    const restarted = await restart(service, dataDir);
    expect(restarted.getState().game).toEqual(before);
  });

  it('a journal whose start event has no options (an older one) reads as all off', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'points-'));
    const service = await serviceIn(dataDir);
    expect(await service.startGame('chicago', PLAYERS)).toEqual(ok);
    expect(journalRecords(dataDir).find((record) => record.kind === 'game-event')?.event).toEqual({ type: 'start', game: 'chicago', players: PLAYERS });
    const restarted = await restart(service, dataDir);
    expect(restarted.getState().game?.options).toEqual(NO_HOUSE_OPTIONS);
    expect(refusalOf(await restarted.gameAction('game-1', { type: 'call', player: 'Anna' })).said?.key).toBe('poker.call.off');
  });

  it.each([
    ['options not an object', 'chicago', [true], 'options', 'poker.setup.optionsNotObject'],
    ['options a list', 'chicago', [], 'options', 'poker.setup.optionsNotObject'],
    ['an unknown option', 'chicago', { jokers: true }, 'options.jokers', 'poker.setup.unknownOption'],
    ['a hostile key', 'chicago', JSON.parse('{"__proto__": {"chicagoCall": true}}') as unknown, 'options.__proto__', 'poker.setup.unknownOption'],
    ['a flag that is text', 'chicago', { chicagoCall: 'yes' }, 'options.chicagoCall', 'poker.setup.notBoolean'],
    ['a flag that is a number', 'chicago', { handPointsEachExchange: 1 }, 'options.handPointsEachExchange', 'poker.setup.notBoolean'],
    ['a negative buy stop', 'chicago', { buyStop: -1 }, 'options.buyStop', 'poker.setup.buyStop'],
    ['a buy stop of 0', 'chicago', { buyStop: 0 }, 'options.buyStop', 'poker.setup.buyStop'],
    ['a fractional buy stop', 'chicago', { buyStop: 41.5 }, 'options.buyStop', 'poker.setup.buyStop'],
    ['a buy stop as text', 'chicago', { buyStop: '42' }, 'options.buyStop', 'poker.setup.buyStop'],
    ['an oversized buy stop', 'chicago', { buyStop: 'x'.repeat(100_000) }, 'options', 'command.tooLong'],
    ['options of many keys', 'chicago', Object.fromEntries(Array.from({ length: 5000 }, (_, index) => [`k${index}`, true])), 'options', 'command.tooLong'],
    ['a buy stop at the target', 'chicago', { buyStop: 52 }, 'options.buyStop', 'poker.setup.buyStop'],
    ['a buy stop of Infinity', 'chicago', { buyStop: Number.POSITIVE_INFINITY }, 'options.buyStop', 'poker.setup.buyStop'],
    ['an option in Pistepokeri', 'pistepokeri', { chicagoCall: true }, 'options.chicagoCall', 'poker.setup.chicagoOnly'],
  ])('refuses %s, in every language, and starts nothing', async (_, game, options, field, key) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'points-'));
    const service = await serviceIn(dataDir);
    const error = refusalOf(await dispatch(service, 'startGame', [game, PLAYERS, options]));
    expect(error.field).toBe(field);
    expect(error.said?.key).toBe(key);
    expect(error.message.length).toBeLessThan(400);
    for (const language of ['fi', 'ru'] as const) {
      const text = formatMessage(error.said as never, language, ENGINE_CATALOGS[language]);
      expect(text).not.toBe(key);
      expect(text).not.toBe(error.message);
    }
    expect(service.getState().game).toBeNull();
    expect(journalRecords(dataDir).filter((record) => record.kind === 'game-event')).toEqual([]);
  });

  it('the engine checks the options again when the start event is applied (a call past the argument check)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'points-'));
    const service = await serviceIn(dataDir);
    // Straight to the service, past the argument check: the engine refuses it all the same.
    const error = refusalOf(await service.startGame('pistepokeri', PLAYERS, { buyStop: 5 }));
    expect(error.said?.key).toBe('poker.setup.chicagoOnly');
    expect(service.getState().game).toBeNull();
    expect(journalRecords(dataDir)).toEqual([]);
  });
});
