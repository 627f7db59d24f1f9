import { describe, expect, it } from 'vitest';
import { allowedHosts } from '../../net/hosts';
import { cookieName, createAccess } from './access';
import { readCookie } from '../../net/cookies';
import { newKey } from './key';

const loopback = { port: 5731, boundHost: '127.0.0.1', listenHost: '127.0.0.1', allowNonLoopback: false };

describe('the names browser mode answers to', () => {
  it('are 127.0.0.1, localhost and [::1] with its port', () => {
    expect([...allowedHosts(loopback)]).toEqual(['127.0.0.1:5731', 'localhost:5731', '[::1]:5731']);
  });

  it('add the loopback address it is bound to (an IP literal no DNS answer can rebind)', () => {
    expect([...allowedHosts({ ...loopback, boundHost: '127.0.0.2', listenHost: '127.0.0.2' })]).toContain('127.0.0.2:5731');
    expect([...allowedHosts({ ...loopback, boundHost: '[::1]', listenHost: '::1' })]).toEqual(['127.0.0.1:5731', 'localhost:5731', '[::1]:5731']);
  });

  it('add the configured host only when listening beyond loopback was allowed', () => {
    expect([...allowedHosts({ port: 5731, boundHost: '192.168.1.5', listenHost: '192.168.1.5', allowNonLoopback: true })]).toContain('192.168.1.5:5731');
    expect([...allowedHosts({ port: 5731, boundHost: '10.0.0.7', listenHost: 'console.lan', allowNonLoopback: true })]).toEqual(
      expect.arrayContaining(['console.lan:5731', '10.0.0.7:5731']),
    );
    expect([...allowedHosts({ port: 5731, boundHost: 'fe80::1', listenHost: 'fe80::1', allowNonLoopback: true })]).toContain('[fe80::1]:5731');
    expect([...allowedHosts({ ...loopback, boundHost: '192.168.1.5', listenHost: '192.168.1.5' })]).not.toContain('192.168.1.5:5731');
  });

  it('on port 80 are also taken without the port, as browsers send them there', () => {
    expect([...allowedHosts({ ...loopback, port: 80 })]).toEqual(expect.arrayContaining(['127.0.0.1:80', '127.0.0.1', 'localhost', '[::1]']));
    expect([...allowedHosts(loopback)]).not.toContain('127.0.0.1');
  });

  it('decide the Origins the bridge takes', () => {
    const access = createAccess({ ...loopback, key: newKey() });
    const upgrade = (origin: string) => access.checkUpgrade({ url: '/bridge?key=x', headers: { host: '127.0.0.1:5731', origin } });
    expect(upgrade('http://localhost:5731')).toMatchObject({ kind: 'refuse', status: 403, message: "forbidden: the bridge needs the console's key" });
    expect(upgrade('http://evil.example:5731')).toMatchObject({ kind: 'refuse', status: 403, message: "forbidden: only the console's own page may open the bridge" });
  });
});

describe('the key cookie', () => {
  it('is named for the port, since cookies ignore ports', () => {
    expect(cookieName(5731)).toBe('chip-race-key-5731');
  });

  it('is read from the Cookie header among others; named twice, neither is taken', () => {
    expect(readCookie('a=1; chip-race-key-5731=abc; b=2', 'chip-race-key-5731')).toBe('abc');
    expect(readCookie('chip-race-key-57310=abc', 'chip-race-key-5731')).toBeNull();
    expect(readCookie('chip-race-key-5731=abc; chip-race-key-5731=def', 'chip-race-key-5731')).toBeNull();
    expect(readCookie(undefined, 'chip-race-key-5731')).toBeNull();
  });
});
