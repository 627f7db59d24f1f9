import { readFileSync } from 'node:fs';
import process from 'node:process';
import { colorUpSummary, planColorUps } from '../plan';
import { runJsonCommand } from './run';

runJsonCommand(process.argv.slice(2), 'plan', (input) => colorUpSummary(planColorUps(input)), readFileSync);
