// Pistepokeri and Chicago: hand evaluation, the event-sourced deal, legal moves, the command-line
// input and output. (engine/poker/testing.ts is for tests and benchmarks and is left out.)
export * from './hands';
export * from './rules';
export * from './setup';
export * from './moves';
export * from './deal';
export * from './input';
export * from './summary';
export * from './match';
export * from './view';
