import { describe, expect, it } from 'vitest';
import { capacityWarning, cliLanguage, connectionNeed } from './capacity';

describe("the cardroom's connection sizing (floor/db/capacity.ts)", () => {
  it('needs a connection per table, the floor pool, the reserved slots and a margin', () => {
    // Debian's defaults: max_connections 100, superuser_reserved_connections 3.
    expect(connectionNeed(80, 100, 3)).toMatchObject({ needed: 80 + 4 + 3 + 10, enough: true });
    expect(connectionNeed(130, 100, 3)).toMatchObject({ needed: 130 + 4 + 3 + 13, enough: false, suggested: 200 });
    // The README's cardroom set-up: 600 for 500 tables.
    expect(connectionNeed(500, 600, 3)).toMatchObject({ needed: 500 + 4 + 3 + 50, enough: true, suggested: 600 });
    expect(connectionNeed(500, 100, 3).enough).toBe(false);
  });

  it('says exactly what to change, in the director’s language, the setting never grouped', () => {
    const need = connectionNeed(1000, 100, 3);
    const en = capacityWarning(need, 'en');
    expect(en).toContain('PostgreSQL allows 100 connections (max_connections)');
    expect(en).toContain('ALTER SYSTEM SET max_connections = 1200;');
    expect(en).toContain('restart the cluster');
    expect(capacityWarning(need, 'fi')).toContain('ALTER SYSTEM SET max_connections = 1200;');
    expect(capacityWarning(need, 'ru')).toContain('ALTER SYSTEM SET max_connections = 1200;');
    expect(capacityWarning(need, 'fi')).not.toBe(en);
  });

  it("takes the command line's language from the locale", () => {
    expect(cliLanguage({ LANG: 'fi_FI.UTF-8' })).toBe('fi');
    expect(cliLanguage({ LC_ALL: 'ru_RU.UTF-8', LANG: 'fi_FI.UTF-8' })).toBe('ru');
    expect(cliLanguage({ LANG: 'de_DE.UTF-8' })).toBe('en');
    expect(cliLanguage({})).toBe('en');
  });
});
