import { afterEach, describe, expect, it } from 'vitest';
import { SYSTEM_MODULES } from '../../commands/systems.js';
import { ConsoleSession } from '../../src/console/session.js';
import { cryptoRoller } from '../../src/dice/roller.js';
import { expectMessage, gm, subcommand, testApp, type TestApp } from '../helpers/app.js';
import { COMMANDS } from '../../commands/index.js';
import { nameIn } from '../../src/i18n/i18n.js';

// /help's examples are copied as they stand: one that names an id the server does not have would
// be refused. Each example works when copied, or marks what cannot be known with a placeholder and
// says how to fill it in.

let app: TestApp;
afterEach(() => app?.ledger.close());

/** Every line /help shows: its description's, then its fields' (where a longer language's list goes on). */
const helpIn = async (locale: string) => {
  const { embed } = expectMessage(await app.router.handle({ type: 'command', name: 'help', options: {}, actor: gm, locale }));
  return [embed.description!, ...(embed.fields ?? []).map((f) => f.value)].join('\n').split('\n');
};

/** Each example /help shows (a line that is one code span starting with /), with the lines under it. */
function examples(lines: string[]): { example: string; after: string[] }[] {
  return lines.flatMap((l, i) => {
    const m = /^`(\/[^`]+)`$/.exec(l);
    if (!m) return [];
    const next = lines.slice(i + 1).findIndex((n) => !n.startsWith('*`<'));
    return [{ example: m[1]!, after: lines.slice(i + 1, next < 0 ? undefined : i + 1 + next) }];
  });
}

/** Refusals that mean "no such id or name here". */
const UNKNOWN = /There is no (roll|game|unit|Wacht am Rhein unit)\b/;

describe('/help, whole in every language', () => {
  it.each(['en', 'de', 'fr'] as const)('%s: every command with its example, none clipped (a longer list goes on in fields)', async (lang) => {
    app = testApp();
    const lines = await helpIn(lang);
    for (const c of COMMANDS)
      expect(
        lines.some((l) => l.startsWith(`**/${nameIn(lang, c.name)}**`)),
        c.name,
      ).toBe(true);
    expect(lines.join('\n')).not.toContain('…\n');
    expect(examples(lines).length).toBe(COMMANDS.length);
  });
});

describe('every /help example, copied', () => {
  it('in a fresh server, with no game or a fresh game of each system: never refused for an unknown id, answered in one of them', async () => {
    // The bot's own dice: an example is copied without knowing what it will roll.
    app = testApp(undefined, { roller: cryptoRoller });
    const shown = examples(await helpIn('en'));
    expect(shown.length).toBeGreaterThan(20);
    const contexts = ['none', ...SYSTEM_MODULES.map((s) => s.id)];
    const problems: string[] = [];
    for (const [i, { example }] of shown.entries()) {
      if (/<[^<>]+>/.test(example)) continue;
      const answered: boolean[] = [];
      for (const system of contexts) {
        const actor = { ...gm, channelId: `c${i}-${system}` };
        if (system !== 'none') expectMessage(await subcommand(app, actor, 'game', 'start', { system, name: 'Fresh' }));
        const out = ((await new ConsoleSession(app.router, actor).run(example)) as { json: Record<string, any> }).json as { ok: boolean; error?: string };
        if (!out.ok && UNKNOWN.test(out.error ?? '')) problems.push(`${example} (${system}): ${out.error}`);
        answered.push(out.ok);
      }
      if (!answered.includes(true)) problems.push(`${example}: refused in every fresh game`);
    }
    expect(problems).toEqual([]);
  }, 60_000);

  it.each([
    ['en', '<roll id>', '*`<roll id>`: not a real id. Type `id:` and pick one from the list it offers as you type.*'],
    ['de', '<Wurf-ID>', '*`<Wurf-ID>`: keine echte ID. Tippe `id:` und wähle eine aus der Liste, die beim Tippen erscheint.*'],
    ['fr', '<id du jet>', '*`<id du jet>`\u202f: pas un vrai identifiant. Tape `id:` et choisis-en un dans la liste proposée pendant la saisie.*'],
  ])('in %s, a placeholder is written as one, with how to fill it in under the example', async (locale, placeholder, hint) => {
    app = testApp();
    const held = examples(await helpIn(locale)).filter((e) => /<[^<>]+>/.test(e.example));
    // /reveal, /void and /annotate name a roll: no id written in an example can exist on a new server.
    expect(held).toHaveLength(3);
    for (const { example, after } of held) {
      expect(example).toContain(`id:${placeholder}`);
      expect(after).toEqual([hint]);
    }
  });
});
