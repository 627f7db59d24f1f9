// The page's side of the pushed states: the one merge, shared with the preload, is protocol's.
export { createStateMerge, isStateMessage } from '../../protocol/stateMerge';
