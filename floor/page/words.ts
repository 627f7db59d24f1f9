import { groupedDelta, groupedNumber } from '../../engine/messages';
/**
 * The floor page's words in the console's three languages (main/ may not import the renderer's
 * catalogs). Each entry is a function of its parameters so a missing parameter is a type error;
 * floorWords.test.ts checks that the three languages have the same entries.
 */
export type FloorLanguage = 'en' | 'fi' | 'ru';
export const FLOOR_LANGUAGES: readonly FloorLanguage[] = ['en', 'fi', 'ru'];

export interface FloorWords {
  readonly title: string;
  readonly lead: string;
  readonly tables: string;
  readonly table: string;
  readonly link: string;
  readonly connected: string;
  readonly behind: (records: string) => string;
  readonly offlineSince: (when: string) => string;
  readonly neverSeen: string;
  readonly lastContact: string;
  readonly colourUp: string;
  readonly colourUpStatus: Readonly<Record<'not-started' | 'racing' | 'waiting-to-confirm' | 'done' | 'disputed', string>>;
  readonly raceStatus: Readonly<Record<'racing' | 'waiting-to-confirm' | 'confirmed' | 'abandoned' | 'open', string>>;
  readonly races: string;
  readonly valueChange: string;
  readonly total: string;
  readonly chip: string;
  readonly toCollect: string;
  readonly toBring: string;
  readonly corrections: string;
  readonly refusals: string;
  readonly chainFailed: string;
  readonly chainFailure: (seq: string, reason: string) => string;
  /** Records the fold passed over (floor/fold.ts FoldProblem): the heading, each one, and why. */
  readonly foldFailed: string;
  readonly foldProblem: (seq: string, reason: string) => string;
  readonly foldReason: Readonly<Record<'number-out-of-range' | 'bad-time' | 'fold-failed', string>>;
  /** Lines damaged at the station, kept as evidence (amber): the heading, and each one. */
  readonly damagedHeading: string;
  readonly damagedRecord: (seq: string) => string;
  /** Records the floor holds and has not folded yet. */
  readonly foldBehind: (records: string) => string;
  readonly openRace: string;
  readonly race: string;
  readonly level: string;
  readonly started: string;
  readonly ended: string;
  readonly winners: string;
  readonly none: string;
  readonly raceRecord: (race: string, table: string) => string;
  readonly back: string;
  readonly exportCsv: string;
  readonly exportJson: string;
  readonly seat: string;
  readonly round: string;
  readonly deal: string;
  readonly tieBreak: (round: string) => string;
  readonly source: Readonly<Record<'manual' | 'shoe' | 'scanner', string>>;
  readonly held: string;
  readonly event: {
    readonly start: string;
    readonly card: string;
    readonly void: string;
    readonly refused: (times: string) => string;
    readonly confirm: string;
    readonly confirmBy: (dealer: string) => string;
    readonly abandon: string;
  };
  readonly chain: string;
  readonly chainStatus: Readonly<Record<'intact' | 'broken' | 'damaged' | 'unchained' | 'unchecked' | 'empty', string>>;
  readonly lastSeal: string;
  readonly station: string;
  readonly raceState: string;
  readonly records: (first: string, last: string) => string;
  readonly counts: string;
  readonly leavingChips: string;
  readonly otherChips: string;
  readonly yes: string;
  readonly no: string;
  readonly noTables: string;
  readonly noRaces: string;
  readonly login: { readonly title: string; readonly token: string; readonly submit: string; readonly wrong: string };
  readonly notFound: string;
  readonly badRequest: string;
  /** The database gone: since when, and (when the page has one) when the view shown was read. */
  readonly unreachable: { readonly since: (when: string) => string; readonly shown: (when: string) => string; readonly nothingYet: string };
  readonly clock: {
    readonly title: string;
    readonly level: (level: string) => string;
    readonly breakAfter: (level: string) => string;
    readonly left: (time: string) => string;
    readonly nextBreak: (level: string, time: string) => string;
    readonly status: Readonly<Record<'idle' | 'running' | 'paused' | 'finished', string>>;
    readonly noStructure: string;
    readonly start: string;
    readonly pause: string;
    readonly resume: string;
    readonly back: string;
    readonly forward: string;
  };
}

const en: FloorWords = {
  title: 'Floor',
  lead: 'Every table of the tournament',
  tables: 'Tables',
  table: 'Table',
  link: 'Link',
  connected: 'connected',
  behind: (records) => `behind by ${records} records`,
  offlineSince: (when) => `offline since ${when}`,
  neverSeen: 'never heard from',
  lastContact: 'Last contact',
  colourUp: 'Colour-up',
  colourUpStatus: { 'not-started': 'not started', racing: 'racing', 'waiting-to-confirm': 'waiting to confirm', done: 'done', disputed: 'disputed' },
  raceStatus: { racing: 'racing', 'waiting-to-confirm': 'waiting to confirm', confirmed: 'confirmed', abandoned: 'abandoned', open: 'open' },
  races: 'Races',
  valueChange: 'Value change',
  total: 'Total',
  chip: 'Chip',
  toCollect: 'To collect',
  toBring: 'To bring',
  corrections: 'Corrections',
  refusals: 'Refusals',
  chainFailed: 'Chain failed verification',
  chainFailure: (seq, reason) => `record ${seq}: ${reason}`,
  foldFailed: 'Records the floor could not count',
  foldProblem: (seq, reason) => `record ${seq}: ${reason}`,
  foldReason: { 'number-out-of-range': 'a number beyond any table\'s', 'bad-time': 'a time that cannot be', 'fold-failed': 'the table\'s records could not be counted' },
  damagedHeading: 'Records damaged at the station',
  damagedRecord: (seq) => `record ${seq} damaged at the station`,
  foldBehind: (records) => `${records} records arrived and are not counted yet`,
  openRace: 'Open race',
  race: 'Race',
  level: 'Level',
  started: 'Started',
  ended: 'Ended',
  winners: 'Winners',
  none: '—',
  raceRecord: (race, table) => `Record of ${race}, table ${table}`,
  back: 'Back to the floor',
  exportCsv: 'Export CSV',
  exportJson: 'Export JSON',
  seat: 'Seat',
  round: 'Round',
  deal: 'deal',
  tieBreak: (round) => `tie-break ${round}`,
  source: { manual: 'typed', shoe: 'shoe', scanner: 'scanner' },
  held: 'held for the dealer',
  event: { start: 'Race started', card: 'Card', void: 'Voided', refused: (times) => `Refused (${times}×)`, confirm: 'Confirmed', confirmBy: (dealer) => `Confirmed by ${dealer}`, abandon: 'Abandoned' },
  chain: 'Chain',
  chainStatus: { intact: 'intact', broken: 'broken', damaged: 'a record damaged at the station', unchained: 'unchained', unchecked: 'links checked, seals keyed at the station', empty: 'empty' },
  lastSeal: 'Last seal',
  raceState: 'Status',
  station: 'Station',
  records: (first, last) => `records ${first}–${last}`,
  counts: 'Counts',
  leavingChips: 'Chips leaving',
  otherChips: 'Other chips',
  yes: 'yes',
  no: 'no',
  noTables: 'No table has reported yet.',
  noRaces: 'No races yet.',
  login: { title: 'Floor: sign in', token: 'Floor password', submit: 'Sign in', wrong: 'Wrong password.' },
  notFound: 'Not found.',
  badRequest: 'Bad request.',
  unreachable: {
    since: (when) => `The floor cannot reach its database since ${when}.`,
    shown: (when) => `Shown: what it read last, at ${when}; the clock keeps counting. This page comes back by itself.`,
    nothingYet: 'Nothing read yet to show. This page comes back by itself.',
  },
  clock: {
    title: 'Clock',
    level: (level) => `Level ${level}`,
    breakAfter: (level) => `Break after level ${level}`,
    left: (time) => `${time} left`,
    nextBreak: (level, time) => `break after level ${level} in ${time}`,
    status: { idle: 'not started', running: 'running', paused: 'paused', finished: 'finished' },
    noStructure: 'No structure loaded: npm run floor -- structure --database URL --file structure.csv',
    start: 'Start',
    pause: 'Pause',
    resume: 'Resume',
    back: '−1 min',
    forward: '+1 min',
  },
};

const fi: FloorWords = {
  title: 'Sali',
  lead: 'Turnauksen kaikki pöydät',
  tables: 'Pöydät',
  table: 'Pöytä',
  link: 'Yhteys',
  connected: 'yhteydessä',
  behind: (records) => `jäljessä ${records} tietuetta`,
  offlineSince: (when) => `ei yhteyttä ${when} alkaen`,
  neverSeen: 'ei koskaan yhteydessä',
  lastContact: 'Viimeksi yhteydessä',
  colourUp: 'Värinvaihto',
  colourUpStatus: { 'not-started': 'ei alkanut', racing: 'kisa käynnissä', 'waiting-to-confirm': 'odottaa vahvistusta', done: 'valmis', disputed: 'kiistanalainen' },
  raceStatus: { racing: 'käynnissä', 'waiting-to-confirm': 'odottaa vahvistusta', confirmed: 'vahvistettu', abandoned: 'hylätty', open: 'avoinna' },
  races: 'Kisat',
  valueChange: 'Arvon muutos',
  total: 'Yhteensä',
  chip: 'Merkki',
  toCollect: 'Kerättävät',
  toBring: 'Tuotavat',
  corrections: 'Korjaukset',
  refusals: 'Hylätyt syötteet',
  chainFailed: 'Ketjun tarkistus epäonnistui',
  chainFailure: (seq, reason) => `tietue ${seq}: ${reason}`,
  foldFailed: 'Tietueet, joita sali ei voinut laskea',
  foldProblem: (seq, reason) => `tietue ${seq}: ${reason}`,
  foldReason: { 'number-out-of-range': 'luku, jollaista yhdelläkään pöydällä ei ole', 'bad-time': 'aika, joka ei voi olla', 'fold-failed': 'pöydän tietueita ei voitu laskea' },
  damagedHeading: 'Asemalla vaurioituneet tietueet',
  damagedRecord: (seq) => `tietue ${seq} vaurioitui asemalla`,
  foldBehind: (records) => `${records} saapunutta tietuetta ei ole vielä laskettu`,
  openRace: 'Avoin kisa',
  race: 'Kisa',
  level: 'Taso',
  started: 'Alkoi',
  ended: 'Päättyi',
  winners: 'Voittajat',
  none: '—',
  raceRecord: (race, table) => `Kisan ${race} pöytäkirja, pöytä ${table}`,
  back: 'Takaisin saliin',
  exportCsv: 'Vie CSV',
  exportJson: 'Vie JSON',
  seat: 'Paikka',
  round: 'Kierros',
  deal: 'jako',
  tieBreak: (round) => `tasapelin ratkaisu ${round}`,
  source: { manual: 'näppäilty', shoe: 'kenkä', scanner: 'lukija' },
  held: 'pidätetty jakajalle',
  event: { start: 'Kisa alkoi', card: 'Kortti', void: 'Mitätöity', refused: (times) => `Hylätty (${times}×)`, confirm: 'Vahvistettu', confirmBy: (dealer) => `Vahvisti ${dealer}`, abandon: 'Hylätty kisa' },
  chain: 'Ketju',
  chainStatus: { intact: 'ehjä', broken: 'rikki', damaged: 'kirjaus vahingoittunut asemalla', unchained: 'ketjuttamaton', unchecked: 'linkit tarkistettu, sinetit avaimella asemalla', empty: 'tyhjä' },
  lastSeal: 'Viimeinen sinetti',
  raceState: 'Tila',
  station: 'Asema',
  records: (first, last) => `tietueet ${first}–${last}`,
  counts: 'Laskennat',
  leavingChips: 'Poistuvat merkit',
  otherChips: 'Muita merkkejä',
  yes: 'kyllä',
  no: 'ei',
  noTables: 'Yksikään pöytä ei ole vielä raportoinut.',
  noRaces: 'Ei vielä kisoja.',
  login: { title: 'Sali: kirjaudu', token: 'Salin salasana', submit: 'Kirjaudu', wrong: 'Väärä salasana.' },
  notFound: 'Ei löydy.',
  badRequest: 'Virheellinen pyyntö.',
  unreachable: {
    since: (when) => `Lattia ei tavoita tietokantaansa ${when} alkaen.`,
    shown: (when) => `Näkyvissä: viimeksi luettu, ${when}; kello käy edelleen. Sivu palaa itsestään.`,
    nothingYet: 'Mitään ei ole vielä luettu. Sivu palaa itsestään.',
  },
  clock: {
    title: 'Kello',
    level: (level) => `Taso ${level}`,
    breakAfter: (level) => `Tauko tason ${level} jälkeen`,
    left: (time) => `${time} jäljellä`,
    nextBreak: (level, time) => `tauko tason ${level} jälkeen ${time} päästä`,
    status: { idle: 'ei käynnissä', running: 'käy', paused: 'pysäytetty', finished: 'päättynyt' },
    noStructure: 'Rakennetta ei ole ladattu: npm run floor -- structure --database URL --file rakenne.csv',
    start: 'Käynnistä',
    pause: 'Pysäytä',
    resume: 'Jatka',
    back: '−1 min',
    forward: '+1 min',
  },
};

const ru: FloorWords = {
  title: 'Зал',
  lead: 'Все столы турнира',
  tables: 'Столы',
  table: 'Стол',
  link: 'Связь',
  connected: 'на связи',
  behind: (records) => `отстаёт на ${records} записей`,
  offlineSince: (when) => `нет связи с ${when}`,
  neverSeen: 'ни разу не выходил на связь',
  lastContact: 'Последняя связь',
  colourUp: 'Смена фишек',
  colourUpStatus: { 'not-started': 'не начата', racing: 'идёт чип-рейс', 'waiting-to-confirm': 'ждёт подтверждения', done: 'завершена', disputed: 'спорная' },
  raceStatus: { racing: 'идёт', 'waiting-to-confirm': 'ждёт подтверждения', confirmed: 'подтверждён', abandoned: 'отменён', open: 'открыт' },
  races: 'Чип-рейсы',
  valueChange: 'Изменение суммы',
  total: 'Итого',
  chip: 'Фишка',
  toCollect: 'Собрать',
  toBring: 'Принести',
  corrections: 'Исправления',
  refusals: 'Отклонённые вводы',
  chainFailed: 'Цепочка не прошла проверку',
  chainFailure: (seq, reason) => `запись ${seq}: ${reason}`,
  foldFailed: 'Записи, которые зал не смог учесть',
  foldProblem: (seq, reason) => `запись ${seq}: ${reason}`,
  foldReason: { 'number-out-of-range': 'число, какого не бывает ни у одного стола', 'bad-time': 'время, которого не может быть', 'fold-failed': 'записи стола не удалось учесть' },
  damagedHeading: 'Записи, повреждённые на станции',
  damagedRecord: (seq) => `запись ${seq} повреждена на станции`,
  foldBehind: (records) => `${records} полученных записей ещё не учтены`,
  openRace: 'Открытый чип-рейс',
  race: 'Чип-рейс',
  level: 'Уровень',
  started: 'Начало',
  ended: 'Конец',
  winners: 'Победители',
  none: '—',
  raceRecord: (race, table) => `Протокол ${race}, стол ${table}`,
  back: 'Назад в зал',
  exportCsv: 'Экспорт CSV',
  exportJson: 'Экспорт JSON',
  seat: 'Место',
  round: 'Раунд',
  deal: 'раздача',
  tieBreak: (round) => `переигровка ${round}`,
  source: { manual: 'вручную', shoe: 'шуз', scanner: 'сканер' },
  held: 'задержана для дилера',
  event: { start: 'Чип-рейс начат', card: 'Карта', void: 'Аннулировано', refused: (times) => `Отклонено (${times}×)`, confirm: 'Подтверждён', confirmBy: (dealer) => `Подтвердил(а) ${dealer}`, abandon: 'Отменён' },
  chain: 'Цепочка',
  chainStatus: { intact: 'цела', broken: 'нарушена', damaged: 'запись повреждена на станции', unchained: 'без цепочки', unchecked: 'связи проверены, печати с ключом станции', empty: 'пусто' },
  lastSeal: 'Последняя печать',
  raceState: 'Состояние',
  station: 'Станция',
  records: (first, last) => `записи ${first}–${last}`,
  counts: 'Подсчёт',
  leavingChips: 'Выводимые фишки',
  otherChips: 'Другие фишки',
  yes: 'да',
  no: 'нет',
  noTables: 'Ни один стол ещё не передал данные.',
  noRaces: 'Гонок пока нет.',
  login: { title: 'Зал: вход', token: 'Пароль зала', submit: 'Войти', wrong: 'Неверный пароль.' },
  notFound: 'Не найдено.',
  badRequest: 'Неверный запрос.',
  unreachable: {
    since: (when) => `Нет связи с базой данных с ${when}.`,
    shown: (when) => `Показано последнее прочитанное, на ${when}; часы идут. Страница обновится сама.`,
    nothingYet: 'Пока нечего показать. Страница обновится сама.',
  },
  clock: {
    title: 'Часы',
    level: (level) => `Уровень ${level}`,
    breakAfter: (level) => `Перерыв после уровня ${level}`,
    left: (time) => `осталось ${time}`,
    nextBreak: (level, time) => `перерыв после уровня ${level} через ${time}`,
    status: { idle: 'не запущены', running: 'идут', paused: 'на паузе', finished: 'закончились' },
    noStructure: 'Структура не загружена: npm run floor -- structure --database URL --file structure.csv',
    start: 'Запустить',
    pause: 'Пауза',
    resume: 'Продолжить',
    back: '−1 мин',
    forward: '+1 мин',
  },
};

export const FLOOR_WORDS: Readonly<Record<FloorLanguage, FloorWords>> = { en, fi, ru };

/** The language a request asks for: `?lang=`, else the first of Accept-Language the floor speaks, else English. */
export function languageOf(query: string | null, acceptLanguage: string | undefined): FloorLanguage {
  if (query !== null && (FLOOR_LANGUAGES as readonly string[]).includes(query)) return query as FloorLanguage;
  const wanted = (acceptLanguage ?? '')
    .slice(0, 512)
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((param) => /^q=([0-9.]+)$/.exec(param.trim())?.[1]).find((value) => value !== undefined);
      return { language: tag.toLowerCase().split('-')[0] ?? '', q: q === undefined ? 1 : Number(q) };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q);
  for (const { language } of wanted) if ((FLOOR_LANGUAGES as readonly string[]).includes(language)) return language as FloorLanguage;
  return 'en';
}

/** Numbers grouped the language's way (1,234 / 1 234), with a sign for a change: the console's rule (engine/messages). */
export function formatNumber(language: FloorLanguage, value: number, signed = false): string {
  return signed ? groupedDelta(value, language) : groupedNumber(value, language);
}

/** A time as the language writes it, in the floor's own time zone. */
export function formatTime(language: FloorLanguage, iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(language, { dateStyle: 'short', timeStyle: 'medium' }).format(date);
}
