// The tournament clock: the structure's levels and breaks as periods, read for any moment from the clock's events.
export * from './clock';
export * from './breaks';
