import { readFileSync } from 'node:fs';
import process from 'node:process';
import { raceFromInput } from '../race/input';
import { raceReport } from '../race/summary';
import { runJsonCommand } from './run';

runJsonCommand(process.argv.slice(2), 'race', (input) => raceReport(raceFromInput(input)), readFileSync);
