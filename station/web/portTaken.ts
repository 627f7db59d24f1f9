/**
 * What browser mode says when its port is taken (EADDRINUSE): the port, and the setting that
 * moves it, in one line. Most often the console is already running there.
 */
export function portTakenMessage(host: string, port: number): string {
  const another = port >= 65535 ? port - 1 : port + 1;
  return `port ${port} on ${host} is already in use (is the console already running?): stop what holds it, or choose another port with CHIP_RACE_PORT (CHIP_RACE_PORT=${another} npm start)`;
}
