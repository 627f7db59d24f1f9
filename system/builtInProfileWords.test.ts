// Every built-in device profile the console offers has its words in each of the console's
// languages (issue 41: the binary readers' had none): a label in the profile picker
// (`source.profileNames`) and a description under it (`source.decoders`). The list of built-ins
// is the hardware's own; the renderer cannot import it, so this test holds the two together.
import { describe, expect, it } from 'vitest';
import { ALL_BUILT_IN_PROFILES } from '../hardware/profile';
import en from '../renderer/locales/en.json';
import fi from '../renderer/locales/fi.json';
import ru from '../renderer/locales/ru.json';

const CATALOGS = { en, fi, ru } as const;
type Words = Readonly<Record<string, string | undefined>>;

describe('the built-in device profiles in the picker', () => {
  it.each(Object.keys(CATALOGS) as (keyof typeof CATALOGS)[])('every built-in profile has a label and a description in %s', (language) => {
    const { source } = CATALOGS[language];
    for (const name of Object.keys(ALL_BUILT_IN_PROFILES)) {
      expect((source.profileNames as Words)[name], `source.profileNames.${name}`).toMatch(/\S/);
      expect((source.decoders as Words)[name], `source.decoders.${name}`).toMatch(/\S/);
      if (language !== 'en') expect((source.decoders as Words)[name], `source.decoders.${name} translated`).not.toBe((en.source.decoders as Words)[name]);
    }
    // And no words for a profile that is not built in.
    expect(Object.keys(source.profileNames).sort()).toEqual(Object.keys(ALL_BUILT_IN_PROFILES).sort());
    expect(Object.keys(source.decoders).sort()).toEqual(Object.keys(ALL_BUILT_IN_PROFILES).sort());
  });
});
