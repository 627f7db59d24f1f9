import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { ConsoleService } from '../service';
import type { ServiceOptions } from '../serviceOptions';

/**
 * The consoles a service test file starts: each started through `serviceIn` is closed after its
 * test; `restart` closes one and starts it again on its data folder; `release` is for a test that
 * closes (or kills) one itself. `defaults` go to every start (a fixed clock, a station name).
 */
export function serviceHarness(defaults: Partial<ServiceOptions> = {}) {
  const open: ConsoleService[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((service) => service.close()));
  });

  async function serviceIn(dataDir: string, extra: Partial<ServiceOptions> = {}): Promise<ConsoleService> {
    const service = await ConsoleService.start({ ...defaults, ...extra, dataDir });
    open.push(service);
    return service;
  }

  function release(service: ConsoleService): void {
    const index = open.indexOf(service);
    if (index >= 0) open.splice(index, 1);
  }

  async function restart(service: ConsoleService, dataDir: string, extra: Partial<ServiceOptions> = {}): Promise<ConsoleService> {
    release(service);
    await service.close();
    return serviceIn(dataDir, extra);
  }

  return { serviceIn, restart, release };
}

/** The history's export as the browser downloads it (ConsoleService.historyExport's pieces), joined into one string. */
export async function exportText(service: ConsoleService, format: 'csv' | 'json'): Promise<string> {
  return [...(await service.historyExport(format)).pieces].join('');
}

/** The records of one kind a data folder's journal holds, in order, as written (its header line aside). */
export function recordsOfKind(dataDir: string, kind: string): { kind: string }[] {
  return readFileSync(join(dataDir, 'journal.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => (JSON.parse(line) as { record: { kind: string } }).record)
    .filter((record) => record.kind === kind);
}
