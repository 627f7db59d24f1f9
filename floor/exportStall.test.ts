// A download whose reader stops taking bytes is cut after a while (floor/server.ts `writable`):
// otherwise it held one of the two export turns, and every export queued behind it, for as long
// as its connection lasted (issue 44: a signed-in client that stops reading). A real HTTP server
// and a real client socket that never reads.
import { createServer, type ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { EXPORT_STALL_MS, writable } from './server';

describe("an export's wait for its reader", () => {
  it('cuts a connection whose reader takes nothing for the stall limit, and goes on as soon as a reader takes more', async () => {
    const outcomes: { destroyed: boolean; afterMs: number }[] = [];
    const responses: ServerResponse[] = [];
    const server = createServer((_request, response) => {
      responses.push(response);
      response.writeHead(200, { 'Content-Type': 'application/octet-stream' });
      void (async () => {
        // Written as an export writes, until the socket's buffers are full and nothing more is
        // taken (a reader that stops) or 256 MB went (a reader that reads).
        const piece = Buffer.alloc(1024 * 1024, 120);
        let afterMs = 0;
        for (let n = 0; n < 256 && !response.destroyed; n += 1) {
          if (response.write(piece)) continue;
          const began = Date.now();
          await writable(response, 300);
          afterMs = Date.now() - began;
        }
        outcomes.push({ destroyed: response.destroyed, afterMs });
        response.end();
      })();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      // A client that sends its request and never reads the answer.
      const stalled = connect(port, '127.0.0.1');
      stalled.pause();
      stalled.write(`GET /export.json HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
      await vi_waitFor(() => outcomes.length === 1);
      expect(outcomes[0]?.destroyed).toBe(true);
      expect(outcomes[0]?.afterMs).toBeGreaterThanOrEqual(290);
      stalled.destroy();
      // A client that reads: the wait ends with the drain, the response whole.
      const reading = connect(port, '127.0.0.1');
      reading.on('data', () => undefined);
      reading.write(`GET /export.json HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
      await vi_waitFor(() => outcomes.length === 2);
      expect(outcomes[1]?.destroyed).toBe(false);
      reading.destroy();
    } finally {
      for (const response of responses) response.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }, 30_000);

  it('waits a minute by default: long enough for a slow reader, short enough to free the turn', () => {
    expect(EXPORT_STALL_MS).toBe(60_000);
  });
});

async function vi_waitFor(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 10) {
    if (waited > 20_000) throw new Error('waited 20 s');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
