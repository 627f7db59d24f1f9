import type { Pinia } from 'pinia';
import type { ConsoleApi } from '../../protocol/commands';
import { useConsoleStore } from './console';
import { useCountDraftsStore } from './countDrafts';
import { useScanStore } from './scans';

/**
 * Makes the screens' stores and attaches them to the console service, the app and every screen
 * test alike: the counts typed and the card reads follow the pushed states from the first one,
 * whichever screen shows first.
 */
export function connectStores(api: ConsoleApi, pinia?: Pinia) {
  const store = useConsoleStore(pinia);
  const drafts = useCountDraftsStore(pinia);
  const scans = useScanStore(pinia);
  store.connect(api);
  return { store, drafts, scans };
}
