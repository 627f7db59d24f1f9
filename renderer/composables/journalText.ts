import { useI18n } from 'vue-i18n';
import type { ChainStatus, JournalFinding, RaceDamage } from '../../protocol/contract';
import { useSaidText } from './saidText';

/** The locale key under `journal.findings` for each finding code. */
export const FINDING_KEYS: Readonly<Record<JournalFinding['code'], string>> = {
  'torn-tail': 'tornTail',
  unreadable: 'unreadable',
  'not-a-record': 'notARecord',
  damaged: 'damaged',
  altered: 'altered',
  rewritten: 'rewritten',
  missing: 'missing',
  reordered: 'reordered',
  duplicate: 'duplicate',
  unsealed: 'unsealed',
  anchor: 'anchor',
  header: 'header',
  'no-header': 'noHeader',
  'newer-version': 'newerVersion',
  'unknown-record': 'unknownRecord',
  'key-missing': 'keyMissing',
  'key-wrong': 'keyWrong',
  'clock-back': 'clockBack',
  'checkpoint-damaged': 'checkpointDamaged',
  'checkpoint-stale': 'checkpointStale',
  skipped: 'skipped',
  settings: 'settings',
};

/** Every verdict of the seal chain (each has its `journal.chain.*` text). */
export const CHAIN_STATUSES: readonly ChainStatus[] = ['intact', 'broken', 'damaged', 'unchained', 'unchecked', 'empty'] satisfies readonly ChainStatus[];

/** The forms of what a damaged line did to a race or game (`record.damaged.*`, `games.damaged.*`): see damageText. */
export const DAMAGE_FORMS = ['confirmed', 'confirmedUnknown', 'unconfirmed', 'unconfirmedUnknown'] as const;

/** Findings that mean the record was tampered with (mirrors the service's list, for styling only). */
const TAMPERING: ReadonlySet<JournalFinding['code']> = new Set(['altered', 'rewritten', 'missing', 'reordered', 'duplicate', 'unsealed', 'anchor', 'header', 'no-header']);

/** What the journal check found, and the seal chain's verdict, in the dealer's language. */
export function useJournalText() {
  const { t } = useI18n();
  const saidText = useSaidText();

  function findingText(finding: JournalFinding): string {
    if (finding.code === 'altered' && finding.skipped) return t('journal.findings.alteredSkipped', { seq: finding.seq });
    if (finding.code === 'torn-tail' && finding.savedAs === null) return t('journal.findings.tornTailInPlace', { bytes: finding.bytes });
    if (finding.code === 'missing' && finding.last !== finding.seq) return t('journal.findings.missingRange', { seq: finding.seq, last: finding.last });
    const { code: _code, ...params } = finding;
    const text = t(`journal.findings.${FINDING_KEYS[finding.code]}`, params as Record<string, unknown>);
    // A damaged line among the sealed records is tampering, and says so.
    return (finding.code === 'unreadable' || finding.code === 'not-a-record') && finding.sealed === true ? `${text} ${t('journal.amongSealed')}` : text;
  }

  /**
   * The part of a finding that is the engine's or the settings reader's own words (why a record
   * could not be used, what was wrong with the settings), shown beside the translated sentence:
   * in the dealer's language when it came in keys, else in English, marked so (`english`).
   */
  function findingDetail(finding: JournalFinding): { text: string; english: boolean } | null {
    if (finding.code !== 'skipped' && finding.code !== 'settings') return null;
    if (finding.said !== undefined) return { text: saidText(finding.said), english: false };
    return { text: finding.code === 'skipped' ? finding.reason : finding.message, english: true };
  }

  function chainText(chain: ChainStatus): string {
    return t(`journal.chain.${chain}`);
  }

  /**
   * What a damaged line did to a race (its history entry's or record's `damaged`): "damaged at
   * record 812: not confirmed — its end could not be read", or "confirmed; record 812 of it damaged".
   * `words`: a points game's (`games.damaged`: closed, not closed).
   */
  function damageText(damaged: RaceDamage, words: 'record.damaged' | 'games.damaged' = 'record.damaged'): string {
    const form: (typeof DAMAGE_FORMS)[number] = `${damaged.confirmed ? 'confirmed' : 'unconfirmed'}${damaged.seq === null ? 'Unknown' : ''}`;
    const key = `${words}.${form}`;
    return t(key, { seq: damaged.seq ?? '' });
  }

  return { findingText, findingDetail, chainText, damageText, isTampering: (finding: JournalFinding) => TAMPERING.has(finding.code) };
}
