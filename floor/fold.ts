/**
 * The floor's view of each table, folded from the records its station sent, with the console's own
 * code: the floor says of a race exactly what the station's console says of it. The parts:
 * - the table projection, pure (replay/tableProjection.ts TableProjection, the object the station's
 *   followers hold: the session, the colour-ups, the floor's decisions, the exchanges, the colour-up
 *   status reading), folded a step at a time by foldLines there, with the floor's own reading of
 *   the races beside it (what it makes: replay/tableFold.ts);
 * - its store (floor/fold/store.ts): each table folded on from the projection's checkpoint its last
 *   fold kept (floor_table_state.replay), the races and the status written to the summary tables
 *   (migration 2: floor_races, floor_table_state), so a fold step reads only the records after it;
 * - the status settled with the director's decisions, the runner's sheet, the chain
 *   (floor/fold/colourUp.ts), and the status query (floor/fold/status.ts);
 * - a table's races, exchanges, history, chain and race records read back (floor/fold/records.ts).
 * Every name the floor's other files import from here is re-exported.
 */
export { COLOUR_UP_STATUSES, colourUpReadingOf, isFinished, isFloorsDecision, STATUS_KINDS, type ColourUpStatus, type KeptDecision, type LeftFinished, type TableFlag } from '../replay/colourUpReading';
export { exchangeSheet, FOLD_PROBLEM_REASONS, RECORD_NUMBER_MAX, type FoldedExchange, type FoldedRace, type FoldedRaceStatus, type FoldLine, type FoldProblem, type FoldProblemReason, type FoldState, type TableFold } from '../replay/tableFold';
export { colourUpStatusOf, findingOfFailure, finishedBreaksOf, floorChainReport, isWaitedFor, markedBreakOf, settledStatus, sheetBreakOf, tableSheet, type ChainFailure, type TableSheet } from './fold/colourUp';
export { foldLines } from '../replay/tableProjection';
export { AT_VERIFIED, EXCHANGE_JSON, FOLD_BATCH, FOLD_LOCK, FOLD_VERSION, foldFloor } from './fold/store';
export { breakProgress, byTableName, damagedInWords, floorStatus, readerHealthOf, readFloorStatus, STATUS_FOLD_BUDGET_MS, type BreakProgress, type DamagedRace, type DenominationChips, type FloorStatus, type TableStatus } from './fold/status';
export { floorRaceRecord, tableChain, tableExchanges, tableHistory, tableHistoryPages, tableRaces, type WithClient } from './fold/records';
