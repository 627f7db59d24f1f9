import { readFileSync } from 'node:fs';
import process from 'node:process';
import { dealFromInput } from '../poker/input';
import { pointsOutput } from '../poker/summary';
import { runJsonCommand } from './run';

runJsonCommand(process.argv.slice(2), 'points', (input) => pointsOutput(dealFromInput(input).state), readFileSync);
