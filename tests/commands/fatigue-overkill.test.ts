import { afterEach, describe, expect, it } from 'vitest';
import { alice, appWithGame, expectMessage, type TestApp } from '../helpers/app.js';

// An Overkill a unit takes as fatigue is worded by whose attack it came from: its own Ground
// Assault must not read as if an enemy's GA or Barrage had hit it.

let app: TestApp;
afterEach(() => app?.ledger.close());

const UNIT = { attack: 4, defense: 4, movement: 4 };

const WORDS = {
  en: {
    own_attack: [
      'Event: an Overkill result of its own Ground Assault, taken as fatigue',
      'Overkill from its own Ground Assault, taken as fatigue: it becomes fatigued.',
    ],
    enemy_attack: [
      'Event: an Overkill result from an enemy Ground Assault or Barrage, taken as fatigue',
      'Overkill from an enemy Ground Assault or Barrage, taken as fatigue: it becomes fatigued.',
    ],
  },
  de: {
    own_attack: [
      'Ereignis: ein Overkill-Ergebnis aus ihrem eigenen Ground Assault, als Erschöpfung genommen',
      'Overkill aus dem eigenen Ground Assault, als Erschöpfung genommen: sie wird erschöpft.',
    ],
    enemy_attack: [
      'Ereignis: ein Overkill-Ergebnis aus feindlichem Ground Assault oder Barrage, als Erschöpfung genommen',
      'Overkill aus feindlichem Ground Assault oder Barrage, als Erschöpfung genommen: sie wird erschöpft.',
    ],
  },
  fr: {
    own_attack: [
      'Événement\u202f: un résultat Overkill de son propre Ground Assault, pris en épuisement',
      'Overkill de son propre Ground Assault, pris en épuisement\u202f: elle devient épuisée.',
    ],
    enemy_attack: [
      'Événement\u202f: un résultat Overkill d’un Ground Assault ou d’un Barrage ennemi, pris en épuisement',
      'Overkill d’un Ground Assault ou d’un Barrage ennemi, pris en épuisement\u202f: elle devient épuisée.',
    ],
  },
} as const;

describe('/fatigue event event:overkill, by whose attack', () => {
  it.each(['en', 'de', 'fr'] as const)('in %s: by:own_attack reads as the unit’s own Ground Assault, by:enemy_attack as the enemy’s', async (locale) => {
    app = await appWithGame('wacht-am-rhein', { Own: UNIT, Hit: UNIT });
    for (const [unit, by] of [
      ['Own', 'own_attack'],
      ['Hit', 'enemy_attack'],
    ] as const) {
      const r = expectMessage(
        await app.router.handle({ type: 'command', name: 'fatigue', subcommand: 'event', options: { unit, event: 'overkill', by }, actor: alice, locale }),
      );
      // Outside an ENA no exemption applies: either way the unit becomes fatigued.
      expect(r.record!.result).toBe('fatigued');
      const [event, effect] = WORDS[locale][by];
      expect(r.embed.description).toBe(event);
      expect(r.embed.fields![0]!.value.split('\n')[0]).toContain(effect);
      if (by === 'own_attack') expect(`${r.embed.description}\n${r.embed.fields![0]!.value}`).not.toMatch(/enemy|feindlich|ennemi/);
    }
  });
});
