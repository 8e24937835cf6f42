import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConsoleSession } from '../../src/console/session.js';
import { alice, testApp } from '../helpers/app.js';

// The console as a newcomer hits it: each line as a newcomer types it.
const ROOT = path.resolve(__dirname, '../..');
const session = (isGm = false) => {
  const app = testApp();
  return { app, console: new ConsoleSession(app.router, { ...alice, isGm }) };
};
const json = async (s: ConsoleSession, line: string) => ((await s.run(line)) as { json: Record<string, any> }).json;

describe('the console as a newcomer meets it', () => {
  it('an unknown flag prints the usage and exits 2, with no stack trace', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/console/main.ts', '--bogus'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("Unknown option '--bogus'");
    expect(r.stderr).toContain('usage: npm run console --');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe('');
  });

  it('user:@alice and role:@Referee name alice and Referee, not "@alice"', async () => {
    const { app, console: c } = session(true);
    app.dice.push(4);
    expect(await json(c, '/rally disorder:1')).toMatchObject({ ok: true });
    const history = await json(c, '/history user:@alice');
    expect(history.embed.description).toContain('/rally');
    expect(history.embed.footer.text).toContain('1 roll');
    const none = await json(c, '/history user:@nobody');
    expect(none.embed.description).toBe('No rolls match.');
    expect(await json(c, '/config gm-role role:@Referee')).toMatchObject({ ok: true, embed: { description: 'Members with <@&Referee> are now GMs here.' } });
    expect(app.ledger.settings.get('g1').gm_role_id).toBe('Referee');
  });

  it('an unquoted value runs up to the next name:, as in Discord (unit:German 4-6-7)', async () => {
    const { app, console: c } = session();
    app.dice.push(2, 3);
    const out = await json(c, '/hob unit:German 4-6-7 broken:false');
    expect(out).toMatchObject({ ok: true, command: 'hob', result: 'hero_and_battle_hardening' });
    expect(out.embed.title).toBe('Heat of Battle · German 4-6-7 — Hero and Battle Hardening');
    const rally = await json(c, '/rally disorder:2 oops');
    expect(rally).toEqual({ ok: false, command: 'rally', error: '`disorder` must be a whole number from 1 to 30 (you gave "2 oops").' });
  });

  it('/hob unit:crew answers with the A15.1 exemption, without asking for a nationality', async () => {
    const { app, console: c } = session();
    const before = app.ledger.count('g1');
    const out = await json(c, '/hob unit:crew');
    expect(out).toEqual({
      ok: false,
      command: 'hob',
      error: 'Crew: no Heat of Battle DR — crews, inherent or temporary, are not subject to Heat of Battle (A15.1). Nothing was rolled or recorded.',
    });
    expect(app.ledger.count('g1')).toBe(before);
  });
});
