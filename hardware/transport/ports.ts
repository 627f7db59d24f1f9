import { SerialPort } from 'serialport';

/** One entry of the port listing, ids normalised to lower-case hex without a 0x prefix. */
export interface PortEntry {
  readonly path: string;
  readonly manufacturer?: string;
  readonly serialNumber?: string;
  readonly vendorId?: string;
  readonly productId?: string;
}

/** What `SerialPort.list()` returns (every field but the path may be missing). */
export interface RawPortInfo {
  readonly path: string;
  readonly manufacturer?: string | undefined;
  readonly serialNumber?: string | undefined;
  readonly vendorId?: string | undefined;
  readonly productId?: string | undefined;
}

export type ListPorts = () => Promise<readonly RawPortInfo[]>;

/** `0403`, `0x0403`, ` 403 ` and `0X0403` are all the same USB id: `0403`. */
export function normaliseUsbId(id: string | undefined): string | undefined {
  if (id === undefined) return undefined;
  const text = id.trim().toLowerCase().replace(/^0x/, '');
  if (text === '') return undefined;
  return /^[0-9a-f]{1,4}$/.test(text) ? text.padStart(4, '0') : text;
}

export function normalisePort(info: RawPortInfo): PortEntry {
  const vendorId = normaliseUsbId(info.vendorId);
  const productId = normaliseUsbId(info.productId);
  const manufacturer = info.manufacturer?.trim();
  const serialNumber = info.serialNumber?.trim();
  return {
    path: info.path,
    ...(manufacturer ? { manufacturer } : {}),
    ...(serialNumber ? { serialNumber } : {}),
    ...(vendorId ? { vendorId } : {}),
    ...(productId ? { productId } : {}),
  };
}

/**
 * The serial ports the operating system lists. Pseudo-terminals (socat pairs, some virtual COM
 * drivers) never appear here, so a port can always be given by path as well.
 */
export async function listPorts(list: ListPorts = () => SerialPort.list()): Promise<PortEntry[]> {
  return (await list()).map(normalisePort);
}

export interface PortFilter {
  readonly vendorId?: string;
  readonly productId?: string;
}

/** The listed ports matching the USB ids given (compared case-insensitively; an id not given matches any). */
export function findPorts(ports: readonly PortEntry[], filter: PortFilter): PortEntry[] {
  const vendorId = normaliseUsbId(filter.vendorId);
  const productId = normaliseUsbId(filter.productId);
  return ports.filter(
    (port) =>
      (vendorId === undefined || normaliseUsbId(port.vendorId) === vendorId) &&
      (productId === undefined || normaliseUsbId(port.productId) === productId),
  );
}

/** Whether a path is in a listing (Windows port names compare case-insensitively). */
export function isListed(ports: readonly { readonly path: string }[], path: string): boolean {
  const windows = /^com\d+$/i.test(path);
  return ports.some((port) => (windows ? port.path.toLowerCase() === path.toLowerCase() : port.path === path));
}
