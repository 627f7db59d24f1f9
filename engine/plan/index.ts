// The colour-up planner: which chips leave play at which break, from the chip set and the structure.
export * from './structure';
export * from './planner';
export * from './csv';
