import type { Message } from '../../engine/messages';
import { statusSaid, type StatusCode } from '../events';

/** A port problem as the status event carries it: a code the screen translates, what it says in keys (`said`) and in English (`message`, the command line's). */
export interface PortProblem {
  readonly code: StatusCode;
  readonly message: string;
  readonly said: Message;
}

const problem = (code: StatusCode, said: Message): PortProblem => ({ code, ...statusSaid(said) });

/** Where the error happened: opening the port, or while it was open (reads, a close we did not ask for). */
export type PortErrorContext = 'open' | 'connected';

/** The command that lets a Linux user open serial ports (a parameter: the screens' message syntax reads `$` as its own). */
export const DIALOUT_COMMAND = 'sudo usermod -aG dialout $USER';

interface ErrorShape {
  readonly message: string;
  readonly code?: string;
  readonly disconnected?: boolean;
  readonly disconnect?: boolean;
}

function shapeOf(error: unknown): ErrorShape {
  if (typeof error === 'object' && error !== null) {
    const record = error as Record<string, unknown>;
    return {
      message: typeof record.message === 'string' ? record.message : String(error),
      ...(typeof record.code === 'string' ? { code: record.code } : {}),
      ...(record.disconnected === true ? { disconnected: true } : {}),
      ...(record.disconnect === true ? { disconnect: true } : {}),
    };
  }
  return { message: String(error) };
}

// serialport reports open failures as text ("Error: No such file or directory, cannot open /dev/ttyUSB0",
// "Error Resource temporarily unavailable Cannot lock port", Windows "Opening COM3: Access denied"),
// so both the errno code (when present) and the text are read.
const NO_SUCH_PORT = /\bENOENT\b|No such file or directory|File not found|Port does not exist/i;
const PERMISSION = /\bEACCES\b|\bEPERM\b|Permission denied|Operation not permitted/i;
const BUSY = /\bEBUSY\b|\bEAGAIN\b|Resource busy|Device or resource busy|Cannot lock port|Resource temporarily unavailable|Port is locked/i;
// On Windows a port held by another program refuses with "Access denied".
const WINDOWS_BUSY = /^Opening [^:]+: Access denied/i;
const UNPLUGGED = /\bENXIO\b|\bENODEV\b|\bEIO\b|\bEBADF\b|No such device|Device not configured|Input\/output error|bad file descriptor/i;

// serialport's Linux and macOS drivers only know none/even/odd parity and 1 or 2 stop bits.
const LINE_SETTING = /Invalid (parity|stop bits) setting/i;

/** The message serialport gave, without its redundant "Error:" prefix. */
function detail(message: string): string {
  return message.replace(/^Error:?\s*/i, '').trim();
}

export function noSuchPort(path: string): PortProblem {
  return problem('no-such-port', { key: 'hardware.port.noSuchPort', params: { path } });
}

export function permissionDenied(path: string): PortProblem {
  return problem('permission-denied', { key: 'hardware.port.permissionDenied', params: { path, command: DIALOUT_COMMAND } });
}

export function portBusy(path: string): PortProblem {
  return problem('port-busy', { key: 'hardware.port.busy', params: { path } });
}

/** Our own registry refused: this process already has the port open. */
export function portBusyInProcess(path: string): PortProblem {
  return problem('port-busy', { key: 'hardware.port.busyInProcess', params: { path } });
}

export function unplugged(path: string): PortProblem {
  return problem('unplugged', { key: 'hardware.port.unplugged', params: { path } });
}

/** Maps a serialport / operating-system error to a status code and one clear sentence (in keys, and its English). */
export function describePortError(error: unknown, path: string, context: PortErrorContext = 'open'): PortProblem {
  const shape = shapeOf(error);
  const text = `${shape.code ?? ''} ${shape.message}`;
  if (shape.disconnected === true || shape.disconnect === true) return unplugged(path);
  if (NO_SUCH_PORT.test(text)) return context === 'open' ? noSuchPort(path) : unplugged(path);
  if (WINDOWS_BUSY.test(shape.message)) return portBusy(path);
  if (PERMISSION.test(text) || /Access denied/i.test(text)) return permissionDenied(path);
  if (BUSY.test(text)) return portBusy(path);
  if (UNPLUGGED.test(text)) return unplugged(path);
  const setting = LINE_SETTING.exec(shape.message)?.[1]?.toLowerCase();
  if (setting !== undefined) return problem('open-failed', { key: setting === 'parity' ? 'hardware.port.parityRefused' : 'hardware.port.stopBitsRefused', params: { path } });
  // `why`: the system's own words, different on every machine.
  return context === 'open'
    ? problem('open-failed', { key: 'hardware.port.openFailed', params: { path, why: detail(shape.message) } })
    : problem('io-error', { key: 'hardware.port.ioError', params: { path, why: detail(shape.message) } });
}

/** Problems that mean the device went away: worth retrying until it comes back. */
export function isUnplugLike(code: StatusCode): boolean {
  return code === 'unplugged' || code === 'no-such-port';
}
