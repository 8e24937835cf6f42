import { COMMANDS } from '../../commands/index.js';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { alice, bob, command, expectError, expectMessage, gm, press, testApp, type TestApp } from '../helpers/app.js';

let app: TestApp;
afterEach(() => app?.ledger.close());

describe('/rally', () => {
  it('rolls, records and replies with the outcome and the embed', async () => {
    app = testApp();
    app.dice.push(4);
    const reply = expectMessage(await command(app, alice, 'rally', { disorder: 2, unit: '1st Foot' }));
    expect(reply.type).toBe('message');
    expect(reply.record).toMatchObject({
      command: 'rally',
      system: 'hearts-of-tin',
      result: 'retreat',
      steps: [{ kind: 'rally', dice: [4], original: 4, modifiers: [{ reason: 'each extra disorder marker', value: -1 }], final: 3, result: 'retreat' }],
    });
    expect(reply.buttons).toEqual([]);
    const row = app.ledger.get('g1', reply.record!.roll_id)!;
    expect(row).toMatchObject({ command: 'rally', kind: 'roll', unit: '1st Foot', result: 'retreat', user_id: 'alice', user_name: 'Alice', dice: [4] });
    expect(row.input).toEqual({ disorder: 2, quality: 'regular', band: false, enemy_in_sight: true, commander_near: false, unit: '1st Foot', sealed: false });
    expect(reply.embed.title).toBe('Rally · 1st Foot — Retreat');
    expect(reply.embed.author?.name).toBe('Alice');
    expect(reply.embed.footer?.text).toBe(`roll ${row.id} · hash ${row.hash.slice(0, 8)}`);
    const text = JSON.stringify(reply.embed.fields);
    expect(text).toContain('⚃');
    expect(text).toContain('`−1` each extra disorder marker');
    expect(text).toContain('**Retreat**');
    expect(text).toContain('Hearts of Tin, New Morale (a)(iii)');
  });

  it.each([
    [{ disorder: 0 }, '`disorder` must be a whole number from 1 to 30 (you gave 0): a unit with no disorder does not need to rally.'],
    [{ disorder: 31 }, '`disorder` must be a whole number from 1 to 30 (you gave 31).'],
    [{ disorder: 2.5 }, '`disorder` must be a whole number from 1 to 30 (you gave 2.5).'],
    [{ disorder: 'two' }, '`disorder` must be a whole number from 1 to 30 (you gave "two").'],
    [{}, '`disorder` is required: a whole number from 1 to 30.'],
    [{ disorder: 1, quality: 'veteran' }, '`quality` must be one of regular, elite, militia, irregular (you gave "veteran").'],
    [{ disorder: 1, band: 'maybe' }, '`band` must be true or false (you gave "maybe").'],
    [{ disorder: 1, unit: 'x'.repeat(81) }, '`unit` must be text of 1 to 80 characters'],
    [{ disorder: 1, morale: 3 }, '`morale` is not an option of /rally: its options are disorder, quality, band, enemy_in_sight, commander_near, unit, sealed.'],
  ])('refuses %o with a clear error and records nothing', async (options, message) => {
    app = testApp();
    app.dice.push(4);
    const error = expectError(await command(app, alice, 'rally', options));
    expect(error).toContain(message);
    expect(app.ledger.count('g1')).toBe(0);
    expect(app.dice.pending()).toBe(1);
  });

  it('refuses an unknown command', async () => {
    app = testApp();
    expect(expectError(await command(app, alice, 'ralley', {}))).toBe(
      `There is no /ralley command. Commands: ${COMMANDS.map((c) => `/${c.name}`).join(', ')}.`,
    );
  });

  it('when the ledger cannot commit (another writer holds the lock), shows no result and says so', async () => {
    app = testApp();
    app.dice.push(4, 5);
    app.ledger.db.pragma('busy_timeout = 50');
    const other = new Database(app.file);
    other.exec('BEGIN IMMEDIATE');
    const reply = await command(app, alice, 'rally', { disorder: 1 });
    other.exec('ROLLBACK');
    other.close();
    expect(app.ledger.count('g1')).toBe(0);
    expect(reply.type).toBe('error');
    expect(expectError(reply)).toMatch(/could not be recorded, so no result is shown.*ref [0-9a-f]{8}/);
    expect(JSON.stringify(reply)).not.toMatch(/retreat|rally chart|Original/);
    expect(app.logs.some((l) => l.includes('ledger write failed'))).toBe(true);
    // The bot serves the next command normally.
    expect(expectMessage(await command(app, alice, 'rally', { disorder: 1 })).record!.result).toBe('rally');
  });
});

describe('commander re-roll button', () => {
  async function failedRally(actor = alice) {
    app.dice.push(2);
    const first = expectMessage(await command(app, actor, 'rally', { disorder: 2, commander_near: true, unit: 'Guards' }));
    expect(first.record!.result).toBe('retreat');
    expect(first.buttons).toEqual([{ custom_id: `v1:reroll:${first.record!.roll_id}`, label: 'Commander joins — re-roll', style: 'primary' }]);
    return first;
  }

  it('is offered only on a failed rally with a commander near', async () => {
    app = testApp();
    app.dice.push(6, 2);
    expect(expectMessage(await command(app, alice, 'rally', { disorder: 1, commander_near: true })).buttons).toEqual([]);
    expect(expectMessage(await command(app, alice, 'rally', { disorder: 1 })).buttons).toEqual([]);
  });

  it('re-rolls once, records a linked row, and updates the message to show both rolls without the button', async () => {
    app = testApp();
    const first = await failedRally();
    app.dice.push(6);
    const reroll = expectMessage(await press(app, alice, first.buttons[0]!.custom_id));
    expect(reroll.type).toBe('update');
    expect(reroll.buttons).toEqual([]);
    expect(reroll.record).toMatchObject({ parent_roll_id: first.record!.roll_id, result: 'rally', steps: [{ kind: 'commander_reroll', dice: [6], final: 5 }] });
    const row = app.ledger.get('g1', reroll.record!.roll_id)!;
    expect(row).toMatchObject({ kind: 'reroll', parent_id: first.record!.roll_id, unit: 'Guards', result: 'rally' });
    // Compact: the first roll in one line, then the re-roll in full.
    const names = reroll.embed.fields!.map((f) => f.name);
    expect(names).toEqual(['First roll', 'Commander re-roll · Dice', 'Modifiers', 'Final', 'Result', 'Odds']);
    expect(reroll.embed.title).toBe('Rally · Guards — Rally');
    expect(reroll.embed.fields![0]!.value).toBe('⚁ **2** → Final **1**: **Retreat** — the commander joined and the unit rolled again.');
    expect(reroll.embed.author?.name).toBe('Alice');
    expect(app.ledger.verify('g1')).toMatchObject({ ok: true, count: 2 });

    app.dice.push(6);
    expect(expectError(await press(app, alice, first.buttons[0]!.custom_id))).toBe(
      `The commander has already joined this unit (re-roll ${row.id}): one re-roll per rally.`,
    );
    expect(app.ledger.count('g1')).toBe(2);
  });

  it('a rout on the re-roll loses the commander', async () => {
    app = testApp();
    app.dice.push(1);
    const first = expectMessage(await command(app, alice, 'rally', { disorder: 2, commander_near: true }));
    expect(first.record!.result).toBe('rout');
    app.dice.push(1);
    const reroll = expectMessage(await press(app, alice, first.buttons[0]!.custom_id));
    expect(reroll.record!.result).toBe('rout_commander_lost');
    expect(JSON.stringify(reroll.embed)).toContain('Rout, commander lost');
  });

  it('only the roller or a GM may press it', async () => {
    app = testApp();
    const first = await failedRally();
    app.dice.push(5);
    expect(expectError(await press(app, bob, first.buttons[0]!.custom_id))).toBe('Only Alice, who rolled this rally, or a GM can call the commander in.');
    expect(app.ledger.count('g1')).toBe(1);
    const byGm = expectMessage(await press(app, gm, first.buttons[0]!.custom_id));
    expect(byGm.record!.result).toBe('rally');
    expect(app.ledger.get('g1', byGm.record!.roll_id)!.user_id).toBe('gm');
  });

  it('never trusts the custom_id: unknown rolls, other servers and forged ids are refused', async () => {
    app = testApp();
    const first = await failedRally();
    const id = first.record!.roll_id;
    app.dice.push(5);
    expect(expectError(await press(app, { ...alice, guildId: 'g2' }, `v1:reroll:${id}`))).toBe('That rally is not on record in this server.');
    expect(expectError(await press(app, alice, 'v1:reroll:nosuchroll'))).toBe('That rally is not on record in this server.');
    expect(expectError(await press(app, alice, `v1:explode:${id}`))).toMatch(/not one of ours/);
    expect(expectError(await press(app, alice, `reroll ${id}`))).toMatch(/not one of ours/);
    app.dice.push(6);
    const success = expectMessage(await command(app, alice, 'rally', { disorder: 1, commander_near: true }));
    expect(expectError(await press(app, alice, `v1:reroll:${success.record!.roll_id}`))).toBe('The rules give no commander re-roll for that rally.');
    expect(app.ledger.count('g1')).toBe(2);
  });

  it('concurrent presses produce exactly one re-roll', async () => {
    app = testApp();
    const first = await failedRally();
    app.dice.push(...Array(20).fill(5));
    const replies = await Promise.all(Array.from({ length: 20 }, () => press(app, alice, first.buttons[0]!.custom_id)));
    expect(replies.filter((r) => r.type === 'update')).toHaveLength(1);
    expect(app.ledger.count('g1')).toBe(2);
  });
});

describe('autocomplete and /help', () => {
  it("suggests units this channel has rolled, never another server's", async () => {
    app = testApp();
    app.dice.push(5, 5);
    await command(app, alice, 'rally', { disorder: 1, unit: '1st Foot' });
    await command(app, { ...alice, guildId: 'g2' }, 'rally', { disorder: 1, unit: '1st Secret' });
    const r = await app.router.handle({ type: 'autocomplete', name: 'rally', option: 'unit', value: '1s', actor: alice });
    expect(r).toEqual({ type: 'choices', choices: [{ name: '1st Foot', value: '1st Foot' }] });
  });

  it('/help lists every command with an example', async () => {
    app = testApp();
    const help = expectMessage(await command(app, alice, 'help', {}));
    expect(help.type === 'message' && help.ephemeral).toBe(true);
    expect(help.embed.description).toContain('/rally disorder:2 quality:militia');
    expect(help.embed.description).toContain('**/help**');
  });
});

describe('a rally with no unit named: the title names the roll, the headline its result', () => {
  // Each die of a 1-marker regular rally (Final = die): 1–3 Retreat, 4–6 Rally; an elite one's 6 is 7, Huzzah!
  const ROLLS: [Record<string, unknown>, number, Record<string, string>][] = [
    [{ disorder: 1 }, 4, { en: 'Rally roll — Rally', de: 'Sammelwurf — Sammeln', fr: 'Jet de ralliement — Ralliement' }],
    [{ disorder: 1 }, 2, { en: 'Rally roll — Retreat', de: 'Sammelwurf — Rückzug', fr: 'Jet de ralliement — Retraite' }],
    [{ disorder: 1, quality: 'elite' }, 6, { en: 'Rally roll — Huzzah!', de: 'Sammelwurf — Hurra!', fr: 'Jet de ralliement — Hourra\u202f!' }],
  ];
  it.each(['en', 'de', 'fr'])('in %s, for every result, no title reads "Rally — Rally"', async (locale) => {
    app = testApp();
    for (const [options, die, titles] of ROLLS) {
      app.dice.push(die);
      const r = expectMessage(await app.router.handle({ type: 'command', name: 'rally', options, actor: alice, locale }));
      expect(r.embed.title).toBe(titles[locale]);
    }
    // Every die of every kind of rally a player can make without a unit: the two halves never match.
    for (const quality of ['regular', 'elite', 'militia'])
      for (let die = 1; die <= 6; die++) {
        app.dice.push(die);
        const title = expectMessage(await app.router.handle({ type: 'command', name: 'rally', options: { disorder: 1, quality }, actor: alice, locale })).embed
          .title!;
        const [rolled, result] = title.split(' — ');
        expect(rolled, title).not.toBe(result);
      }
  });
});
