import { spawn } from 'node:child_process';
import { ROOT } from './support';

export interface BareShoe {
  /** Its page's address. */
  readonly url: string;
  stop(): Promise<void>;
}

/**
 * Starts the bare path (bench/bareShoe.ts) as its own process, as browser mode runs in its own,
 * reading `ptyPath`; resolves once its port is open and its page can be loaded.
 */
export async function startBareShoe(ptyPath: string): Promise<BareShoe> {
  // Node with tsx's loader, as the console is started (e2e/harness/console.ts): one process to stop.
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/bareShoe.ts', ptyPath], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`bench: the bare shoe did not start in 20 s:\n${output}`)), 20_000);
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        const match = /bare shoe: (http:\/\/\S+)/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(match[1] as string);
        }
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`bench: the bare shoe exited with ${code}:\n${output}`));
      });
    });
    return {
      url,
      async stop() {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
        await exited;
      },
    };
  } catch (error) {
    child.kill('SIGKILL');
    await exited;
    throw error;
  }
}
