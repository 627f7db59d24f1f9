/**
 * The floor page as HTML made on the server: no script, the stylesheet from the floor itself
 * (/floor.css), every text from the database escaped by the template that builds it (./html.ts).
 * The overview refreshes itself every 5 s. Its words are the console's (./words.ts): a race's
 * record says what the station's slip says.
 *
 * A page a module: the overview (./overview.ts), a table's page (./table.ts), a race's record
 * (./race.ts), the seating (./seating.ts), the tournament (./tournament.ts), the clock and the
 * outage banner (./clock.ts), the sign-in and one-line pages (./plain.ts), the runner's sheet
 * (./runnerPage.ts); what they share in ./common.ts. This module names them all as before.
 */
export { CONNECTED_WITHIN_MS, STRUCTURE_COMMAND, COLOUR_UP_STATUS, exchangeLines, href, languageLinks, linkState, page, readerHealthText, sheetCell, wordsOf } from './common';
export { clockSection, clockTime, outageBanner, renderOutage } from './clock';
export { renderOverview } from './overview';
export { renderTable } from './table';
export { renderRaceRecord } from './race';
export { brokenMidColourUp, renderSeating, seatingChangeText, seatsText, tableSeatsSection, type SeatConfirmation } from './seating';
export { renderTournament } from './tournament';
export { renderLogin, renderMessage } from './plain';
export { FLOOR_CSS } from './style';
