import { describe, expect, it } from 'vitest';
import { englishText } from '../engine/messages';
import { startRace } from '../engine/race/race';
import { englishExplanationLine, raceReport, raceSummary } from '../engine/race/summary';
import { dealAll } from '../engine/race/testing';
import { raceViewSummary } from './views';

// The Finnish example of the rules document: Matti, Teppo, Liisa, with a card each still to come.
const FINNISH = {
  rules: 'classic',
  removed: 25,
  next: 100,
  button: 3,
  seats: [
    { seat: 1, name: 'Matti', chips: 3, other: 100 },
    { seat: 2, name: 'Teppo', chips: 2, other: 100 },
    { seat: 3, name: 'Liisa', chips: 1, other: 100 },
  ],
};

describe('the race view and the report', () => {
  const dealing = dealAll(startRace(FINNISH), ['2c']);
  const complete = dealAll(startRace(FINNISH), ['2c', 'Kd', '9h', '4s', 'As', '3d']);

  it('leaves the explanation out while the race is dealt, and carries it once complete', () => {
    expect(dealing.progress.status).toBe('dealing');
    expect(complete.progress.status).toBe('complete');
    expect(raceViewSummary(dealing).said.explanation).toEqual([]);
    expect(raceSummary(dealing).said.explanation.length).toBeGreaterThan(0);
    // Everything else is the engine's summary, to the letter.
    expect({ ...raceViewSummary(dealing), said: null }).toEqual({ ...raceSummary(dealing), said: null });
    expect(raceViewSummary(dealing).said.nextStep).toEqual(raceSummary(dealing).said.nextStep);
    expect(raceViewSummary(complete)).toEqual(raceSummary(complete));
  });

  it('the report is the summary with the English next step and explanation of its said messages', () => {
    const report = raceReport(complete);
    const { nextStep, explanation, ...rest } = report;
    expect(rest).toEqual(raceSummary(complete));
    expect(nextStep).toBe(englishText(report.said.nextStep, { cards: 'pips' }));
    expect(explanation).toEqual(report.said.explanation.map(englishExplanationLine));
    expect(explanation[0]).toMatch(/^Rules: classic/);
    // The summary itself says nothing in English: the screens say it in the dealer's language.
    expect(raceSummary(complete)).not.toHaveProperty('explanation');
    expect(raceSummary(complete)).not.toHaveProperty('nextStep');
  });
});
