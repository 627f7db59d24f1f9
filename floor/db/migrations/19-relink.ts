import { VERIFY_STATION_RECORD_18 } from './18-login-limits';
import type { Migration } from './shared';

/**
 * The arrival trigger as migration 19 re-creates it (from the body given, so the same change can
 * be made to a later body): the one link a damaged line at the station makes it write. A station
 * whose journal's last line was damaged after the floor took it (a failing disk) links its next
 * record to that line's seal where its end still reads (journal/reader.ts: the floor accepts that
 * as ever); where the seal itself is damaged, it links to the line before it, which is what the
 * floor's copy of the damaged line carries as its `prev`. The floor takes that link (the record
 * directly after, and only the first link of it: a header's or the record's), and marks the row
 * `relinked`: it follows the floor's last record by that record's own link, not by its hash.
 * Nothing else is loosened: any other link is still `broken-link`.
 */
export function relinkAfterStationDamage(body: string): string {
  const edits: ReadonlyArray<readonly [string, string]> = [
    ['  after_damage pg_catalog.bool := false;\n', '  after_damage pg_catalog.bool := false;\n  relink pg_catalog.text;\n'],
    [
      'SELECT r.seq, r.hash, r.chain, r.damaged INTO previous FROM',
      'SELECT r.seq, r.hash, r.chain, r.damaged, r.prev INTO previous FROM',
    ],
    [
      '    after_damage := COALESCE(previous.damaged, false);\n',
      "    after_damage := COALESCE(previous.damaged, false);\n    -- The link the floor's copy of the record before carries: taken once, from the record right after it.\n    IF previous.seq = NEW.seq - 1 AND NOT after_damage THEN relink := previous.prev; END IF;\n",
    ],
    [
      "      IF (header->>'prev') IS DISTINCT FROM expected_prev AND NOT after_damage THEN problem := 'broken-link'; EXIT; END IF;\n",
      "      IF (header->>'prev') IS DISTINCT FROM expected_prev AND NOT after_damage AND (relink IS NULL OR (header->>'prev') IS DISTINCT FROM relink) THEN problem := 'broken-link'; EXIT; END IF;\n      NEW.relinked := NEW.relinked OR ((header->>'prev') IS DISTINCT FROM expected_prev AND NOT after_damage);\n      relink := NULL;\n",
    ],
    [
      "  IF problem IS NULL AND (parsed->>'prev') IS DISTINCT FROM expected_prev AND NOT after_damage THEN problem := 'broken-link'; END IF;\n",
      "  IF problem IS NULL AND (parsed->>'prev') IS DISTINCT FROM expected_prev AND NOT after_damage AND (relink IS NULL OR (parsed->>'prev') IS DISTINCT FROM relink) THEN problem := 'broken-link'; END IF;\n  IF problem IS NULL THEN NEW.relinked := NEW.relinked OR ((parsed->>'prev') IS DISTINCT FROM expected_prev AND NOT after_damage); END IF;\n",
    ],
    // Set by the trigger alone (a station may not insert the column): false unless relinked above.
    ['  NEW.damaged := COALESCE(NEW.damaged, false);\n', '  NEW.damaged := COALESCE(NEW.damaged, false);\n  NEW.relinked := false;\n'],
  ];
  let sql = body;
  for (const [from, to] of edits) {
    if (sql.split(from).length !== 2) throw new Error(`migration 19: the arrival trigger's text has no single ${JSON.stringify(from.trim().slice(0, 60))}`);
    sql = sql.replace(from, to);
  }
  return sql;
}

export const migration: Migration = {
  version: 19,
  name: "a station's next record after a line damaged on its disk after the floor took it: linked to that line's seal, or (its seal damaged too) to the link the floor's copy of it carries (relinkAfterStationDamage)",
  // Replaces public.verify_station_record (migration 3's body, VERIFY_STATION_RECORD, with the
  // edits of relinkAfterStationDamage); `relinked` marks a row taken by the floor's copy's link.
  sql: `
ALTER TABLE public.station_records ADD COLUMN relinked pg_catalog.bool NOT NULL DEFAULT false;
${relinkAfterStationDamage(VERIFY_STATION_RECORD_18)}
`,
};
