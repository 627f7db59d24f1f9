/**
 * Wires a screen for a test: Pinia, vue-i18n and the console store attached to an API (the real kernel, kernelApi.ts; or a state-only stub, stubApi.ts).
 * (Mounting itself stays in the test files, which alone may import @vue/test-utils.)
 */
import { createPinia } from 'pinia';
import type { ConsoleApi } from '../../protocol/commands';
import { createConsoleI18n, type Locale } from '../i18n';
import type { useConsoleStore } from '../stores/console';
import { connectStores } from '../stores/connect';
import type { useCountDraftsStore } from '../stores/countDrafts';
import type { useScanStore } from '../stores/scans';
import { createStubApi, type StubApi } from './stubApi';
import { stationsIdle } from './kernelApi';

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Lets pending promises and Vue's update queue run: on the real kernel (kernelApi.ts) the commands
 * the page sent are waited for too (they write the journal), then the page's answer to them.
 */
export async function settle(): Promise<void> {
  await tick();
  // A command's answer can send another (the page's reaction to it): waited for, as long as there are.
  for (let round = 0; round < 20 && (await stationsIdle()); round += 1) await tick();
}

export interface Prepared<Api extends ConsoleApi> {
  readonly api: Api;
  readonly store: ReturnType<typeof useConsoleStore>;
  readonly drafts: ReturnType<typeof useCountDraftsStore>;
  readonly scans: ReturnType<typeof useScanStore>;
  readonly i18n: ReturnType<typeof createConsoleI18n>;
  readonly plugins: [ReturnType<typeof createPinia>, ReturnType<typeof createConsoleI18n>];
  /** Keys the current locale lacked while rendering (each would have fallen back to English). */
  readonly missing: string[];
}

export async function prepare<Api extends ConsoleApi = StubApi>(
  options: { api?: Api; locale?: Locale } = {},
): Promise<Prepared<Api>> {
  const api = (options.api ?? createStubApi()) as Api;
  const missing: string[] = [];
  const pinia = createPinia();
  const i18n = createConsoleI18n(options.locale ?? 'en', { onMissing: (locale, key) => missing.push(`${locale}:${key}`) });
  const { store, drafts, scans } = connectStores(api, pinia);
  await settle();
  return { api, store, drafts, scans, i18n, plugins: [pinia, i18n], missing };
}
