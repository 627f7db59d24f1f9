/** The station's follower of its dealings with the floor: the pure follower of replay/. */
export { DECISIONS_SHOWN, FloorDecisions, type FloorClosing } from '../../replay/floorDecisions';
