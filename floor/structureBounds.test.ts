// Issue 44 (low), the floor's tournament sheet as the attack sent it: a break of 99,999,999 minutes
// was taken while a level is capped at 600 (a break is capped as a level is now, refused in the
// sheet's language), and a JSON sheet nested 40,000 deep answered a raw RangeError (refused now with
// the usual clear refusal before anything walks it). Each through the page's upload and the command
// line's load, against a real PostgreSQL; the tournament the floor held is kept.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isInputError } from '../engine/errors';
import { ENGINE_CATALOGS } from '../engine/messages';
import { formatMessage } from '../engine/messages/message';
import { LEVEL_MINUTES_MAX } from '../engine/plan/structure';
import { loadFloorTournament, readFloorClock } from './clock';
import { startFloorServer, type FloorServer } from './server';
import { POSTGRES_AVAILABLE, startFloorDatabase, type ThrowawayPostgres } from './testing/postgres';
import { ask } from './testing/requests';
import { formatNumber } from './page/words';

const run = POSTGRES_AVAILABLE || process.env.CI === 'true';
const TOKEN = 'structure-bounds-password';
const BOUNDARY = '----structure-bounds';
const SHEET = ['chips,100,500,1000', 'level,100,200,,20', 'level,200,400,,20', 'break,10', 'level,500,1000,,30'].join('\n');
const upload = (file: string, lang: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="lang"\r\n\r\n${lang}\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="tournament.csv"\r\nContent-Type: text/csv\r\n\r\n${file}\r\n--${BOUNDARY}--\r\n`;
const deepText = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;

async function refusal(work: Promise<unknown>): Promise<{ field: string; said: unknown; message: string }> {
  try {
    await work;
  } catch (error) {
    if (!isInputError(error)) throw error;
    return { field: error.field, said: error.said, message: error.message };
  }
  throw new Error('not refused');
}

describe.runIf(run)("the floor's tournament sheet, bounded as the planner bounds it (a real PostgreSQL server)", () => {
  let server: ThrowawayPostgres;
  let admin: pg.Client;
  let page: FloorServer;

  beforeAll(async () => {
    ({ server, admin } = await startFloorDatabase());
    page = await startFloorServer({ databaseUrl: server.url, port: 0, token: TOKEN, log: () => undefined });
    await loadFloorTournament(admin, SHEET, Date.now());
  }, 120_000);

  afterAll(async () => {
    await page?.close();
    await admin?.end();
    await server?.remove();
  });

  const post = (body: string) => ask(page.port, '/tournament', { method: 'POST', headers: { origin: `http://127.0.0.1:${page.port}`, authorization: `Bearer ${TOKEN}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }, body });

  it('refuses a break longer than a level may be (break,99999999), in English, Finnish and Russian; takes one of 600 minutes', async () => {
    const before = await readFloorClock(admin);
    const long = SHEET.replace('break,10', 'break,99999999');
    const refused = await refusal(loadFloorTournament(admin, long, Date.now()));
    expect(refused.field).toBe('levels[2].break');
    expect(refused.said).toEqual({ key: 'plan.levels.breakMinutesMax', params: { level: 2, max: LEVEL_MINUTES_MAX, got: 99_999_999 } });
    expect(refused.message).toBe('levels[2].break: the break after level 2 can last at most 600 minutes (got 99999999)');
    for (const [lang, words] of [
      ['en', 'the break after level 2 can last at most 600 minutes (got 99999999)'],
      ['fi', 'tauko tason 2 jälkeen voi kestää enintään 600 minuuttia (annettu 99999999)'],
      ['ru', 'перерыв после уровня 2 может длиться не более 600 минут (получено 99999999)'],
    ] as const) {
      expect(formatMessage(refused.said as never, lang, ENGINE_CATALOGS[lang])).toBe(words);
      const answer = await post(upload(long, lang));
      expect(answer.status).toBe(409);
      // The page writes the numbers as the language does (99,999,999).
      expect(answer.body).toContain(`data-testid="tournament-problem">${words.replace('99999999', formatNumber(lang, 99_999_999))}<`);
    }
    // As the JSON sheet gives it, too; and the tournament the floor held is kept.
    expect((await refusal(loadFloorTournament(admin, JSON.stringify({ chips: [100], levels: [{ sb: 100, bb: 200, minutes: 20 }, { break: 601 }] }), Date.now()))).field).toBe('levels[1].break');
    expect(await readFloorClock(admin)).toEqual(before);
    await loadFloorTournament(admin, SHEET.replace('break,10', `break,${LEVEL_MINUTES_MAX}`), Date.now());
    expect((await readFloorClock(admin))?.structure.levels[2]).toEqual({ break: LEVEL_MINUTES_MAX });
    await loadFloorTournament(admin, SHEET, Date.now());
  });

  it('refuses a JSON sheet nested 40,000 deep with the usual clear refusal, wherever it nests, not a RangeError; the tournament is kept', async () => {
    const before = await readFloorClock(admin);
    for (const sheet of [`{"rules":${deepText(40_000)},"chips":[100],"levels":[{"sb":100,"bb":200,"minutes":20}]}`, `{"award":${deepText(40_000)},"chips":[100],"levels":[{"sb":100,"bb":200,"minutes":20}]}`, `{"chips":[100],"levels":${deepText(40_000)}}`, deepText(40_000)]) {
      const refused = await refusal(loadFloorTournament(admin, sheet, Date.now()));
      expect(refused.said).toEqual({ key: 'value.tooDeep', params: { n: 64 } });
      const answer = await post(upload(sheet, 'fi'));
      expect(answer.status).toBe(409);
      expect(answer.body).toContain('data-testid="tournament-problem">sisäkkäin yli 64 tasoa syvältä');
    }
    expect(await readFloorClock(admin)).toEqual(before);
  });
});
