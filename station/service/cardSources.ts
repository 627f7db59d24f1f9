import { SerialSource } from '../../hardware/transport/serialSource';
import { listPorts } from '../../hardware/transport/ports';
import type { PortInfo } from '../../protocol/contract';
import type { CardSourceFactory } from './cardSource';

/**
 * The real card sources: a serial shoe or barcode reader, reconnecting by itself after an unplug.
 * (The simulated shoe reaches the console the same way, over a serial port: `npm run shoe`.)
 */
export const serialCardSources: CardSourceFactory = ({ kind, path, profile, decoder }, emit, onRepeat) => {
  if (kind === 'manual' || path === '') return null;
  const source = new SerialSource({ ...(decoder === undefined ? {} : { decoder }), ...(onRepeat === undefined ? {} : { onRepeat }) });
  source.on(emit);
  void source.open(path, profile.baud, profile);
  return { stop: () => source.close() };
};

export async function availablePorts(): Promise<readonly PortInfo[]> {
  return (await listPorts()).map((port) => ({ path: port.path, manufacturer: port.manufacturer ?? '', vendorId: port.vendorId ?? '', productId: port.productId ?? '' }));
}
