import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SerialPort } from 'serialport';
import { WebSocketServer, type WebSocket } from 'ws';
import { DEFAULT_PROFILE } from '../hardware/profile';
import { createFramer } from '../hardware/registry';

/**
 * The bare path the latency bench measures the console against, as a program of its own
 * (`node --import tsx bench/bareShoe.ts <pty path>`, started by bench/baseline.ts): a socat
 * pseudo-terminal read with serialport as the console reads its shoe, cut into frames by the same
 * framing, each frame's text sent as it is over a WebSocket to a page that puts it in the DOM.
 * No decoder, service, journal, state or Vue: what is left of the console's path when the console
 * is taken out of it. Prints `bare shoe: http://127.0.0.1:PORT/` once the port is open (a
 * pseudo-terminal drops what is written before) and its page can be loaded.
 */

const path = process.argv[2];
if (path === undefined) {
  console.error('usage: bareShoe.ts <pty path>');
  process.exit(2);
}

/** The page: one element per frame, marked as the console marks a dealt card, so the same recorder watches both. */
const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>bare shoe</title></head>
<body><ol id="cards"></ol><script>
const cards = document.getElementById('cards');
const socket = new WebSocket('ws://' + location.host + '/frames');
socket.addEventListener('open', () => document.body.setAttribute('data-state', 'connected'));
socket.addEventListener('message', (event) => {
  const card = document.createElement('li');
  card.setAttribute('data-testid', 'dealt-card');
  card.setAttribute('data-card', event.data);
  card.textContent = event.data;
  cards.append(card);
});
</script></body></html>`;

const pages = new Set<WebSocket>();
const server = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  response.end(PAGE);
});
const sockets = new WebSocketServer({ server, path: '/frames' });
sockets.on('connection', (socket) => {
  pages.add(socket);
  socket.on('close', () => pages.delete(socket));
});

const framer = createFramer(DEFAULT_PROFILE.framing);
const port = new SerialPort({ path, baudRate: 9600, autoOpen: false });
port.on('data', (chunk: Buffer) => {
  for (const frame of framer.push(chunk)) {
    const text = frame.bytes.toString('utf8');
    for (const page of pages) page.send(text);
  }
});
port.on('error', (error) => console.error(`bare shoe: ${error.message}`));
await new Promise<void>((resolve, reject) => port.open((error) => (error ? reject(error) : resolve())));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
console.log(`bare shoe: http://127.0.0.1:${(server.address() as AddressInfo).port}/`);

process.once('SIGTERM', () => {
  sockets.close();
  server.close();
  port.close(() => process.exit(0));
});
