import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../commands/index.js';
import { commandDefinitions } from '../../src/discord/definitions.js';
import { LANGUAGES, TRANSLATED } from '../../src/i18n/i18n.js';
import { createRouter } from '../../src/app.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { silentLogger } from '../../src/log.js';
import { tmpDb } from '../helpers/tmp.js';

// Every command and option named and described in German and French, from one
// file per language; every key in every language, every string within Discord's limits.
type Node = {
  name: string;
  description: string;
  name_localizations?: Record<string, string>;
  description_localizations?: Record<string, string>;
  options?: Node[];
  choices?: { name: string; value: unknown }[];
};
const defs = commandDefinitions(COMMANDS) as unknown as Node[];
const every = (nodes: Node[], out: Node[] = []): Node[] => {
  for (const n of nodes) {
    out.push(n);
    every(n.options ?? [], out);
  }
  return out;
};
// Discord's rule for a name: lowercase where a letter has a lowercase, 1–32 of letters, digits, - and _.
const NAME = /^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;

// The keys: every English name and description the bot registers (a new option needs its translations).
const NAMES = [...new Set(every(defs).map((n) => n.name))];
const DESCRIPTIONS = [...new Set(every(defs).map((n) => n.description))];

describe('localisations', () => {
  it.each(TRANSLATED)('%s has every key, and every string within Discord’s limits', (lng) => {
    const t = LANGUAGES[lng];
    expect(Object.keys(t.names).sort()).toEqual([...NAMES].sort());
    expect(Object.keys(t.descriptions).sort()).toEqual([...DESCRIPTIONS].sort());
    for (const [en, name] of Object.entries(t.names)) {
      expect(name, en).toMatch(NAME);
      expect(name, en).toBe(name.toLowerCase());
    }
    for (const [en, d] of Object.entries(t.descriptions)) {
      expect(d.length, en).toBeGreaterThan(0);
      expect(d.length, `${en} → ${d}`).toBeLessThanOrEqual(100);
    }
  });

  it.each(TRANSLATED)('%s: every command and option carries it; sibling names stay distinct; each command within 4,000 characters', (lng) => {
    for (const d of defs) {
      let chars = 0;
      for (const n of every([d])) {
        expect(n.name_localizations?.[lng], n.name).toBe(LANGUAGES[lng].names[n.name]);
        expect(n.description_localizations?.[lng], n.description).toBe(LANGUAGES[lng].descriptions[n.description]);
        chars += n.name_localizations![lng]!.length + n.description_localizations![lng]!.length;
        for (const c of n.choices ?? []) chars += c.name.length + String(c.value).length;
        const siblings = (n.options ?? []).map((o) => o.name_localizations![lng]!);
        expect(new Set(siblings).size, `/${d.name} ${n.name}: ${siblings.join(', ')}`).toBe(siblings.length);
      }
      expect(chars, `/${d.name} in ${lng}`).toBeLessThanOrEqual(4000);
    }
  });
});

describe('replies in the interaction’s language', () => {
  it('German, French, and English for any other locale', async () => {
    const ledger = Ledger.open(tmpDb());
    const router = createRouter({ ledger, log: silentLogger });
    const actor = { guildId: 'g1', channelId: 'c1', userId: 'u1', userName: 'U', isGm: false };
    const press = async (locale: string | undefined) => {
      const r = await router.handle({ type: 'button', customId: 'v9:nothing:x', actor, ...(locale ? { locale } : {}) });
      return r.type === 'error' ? r.message : '';
    };
    expect(await press('de')).toBe('Diese Schaltfläche ist nicht von uns oder abgelaufen.');
    expect(await press('fr')).toBe('Ce bouton n’est pas à nous, ou il a expiré.');
    expect(await press('en-GB')).toBe('That button is not one of ours, or it has expired.');
    expect(await press('pt-BR')).toBe('That button is not one of ours, or it has expired.');
    expect(await press(undefined)).toBe('That button is not one of ours, or it has expired.');
    ledger.close();
  });
});
