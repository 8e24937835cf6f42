import { afterEach, describe, expect, it } from 'vitest';
import { alice, command, expectError, expectMessage, testApp, type TestApp } from '../helpers/app.js';

let app: TestApp;
afterEach(() => app?.ledger.close());

describe('/morale', () => {
  it('rolls 3d6, records, and shows the dice, each modifier, the Final and the row', async () => {
    app = testApp();
    app.dice.push(4, 3, 2);
    const reply = expectMessage(
      await command(app, alice, 'morale', { morale: 'leery', casualties: '2/5', cover: 'soft', unit: 'Panzergrenadiers', reason: 'friendly_fire' }),
    );
    expect(reply.record).toMatchObject({
      command: 'morale',
      system: 'lightning-war',
      result: 'suppressed',
      steps: [{ kind: 'morale', dice: [4, 3, 2], original: 9, final: 7, table_result: 'suppressed' }],
    });
    const row = app.ledger.get('g1', reply.record!.roll_id)!;
    expect(row.input).toMatchObject({ morale: 'leery', casualties: { lost: 2, original: 5 }, cover: 'soft', reason: 'friendly_fire' });
    expect(row.dice).toEqual([4, 3, 2]);
    const text = JSON.stringify(reply.embed);
    expect(text).toContain('⚃ **4** · ⚂ **3** · ⚁ **2** → Original **9**');
    expect(text).toContain('`−2` leery morale');
    expect(text).toContain('`−2` casualties over 20% up to 40% (2/5)');
    expect(text).toContain('`+2` under soft cover');
    expect(text).toContain('**Suppressed**');
    expect(reply.embed.description).toContain('because it was hit by friendly fire');
  });

  it('an armored vehicle that is pinned is told it has no effect', async () => {
    app = testApp();
    app.dice.push(3, 3, 3);
    const reply = expectMessage(await command(app, alice, 'morale', { morale: 'professional', unit_type: 'armored_vehicle' }));
    expect(reply.record!.result).toBe('pinned');
    expect(JSON.stringify(reply.embed)).toContain('no effect on an armored vehicle');
  });

  it('a rally reminds that the commander writes no orders', async () => {
    app = testApp();
    app.dice.push(5, 5, 1);
    const reply = expectMessage(await command(app, alice, 'morale', { morale: 'professional', rally: true, commander: true }));
    expect(reply.record).toMatchObject({ result: 'rallied', steps: [{ kind: 'rally', final: 15 }] });
    expect(JSON.stringify(reply.embed)).toContain('writes no orders this turn');
  });

  it.each([
    ['3/2', 'more lost than the original strength'],
    ['0/0', 'the original strength must be at least 1'],
    ['-1/4', 'losses cannot be negative'],
    ['abc', 'write it as lost/original, like 2/5'],
    ['2/0', 'the original strength must be at least 1'],
  ])('casualties %j: a clear error, nothing recorded', async (casualties, why) => {
    app = testApp();
    app.dice.push(1, 1, 1);
    const error = expectError(await command(app, alice, 'morale', { morale: 'professional', casualties }));
    expect(error).toBe(
      `\`casualties\` must be lost/original with 0 ≤ lost ≤ original and original ≥ 1, like 2/5 (you gave ${JSON.stringify(casualties)}): ${why}.`,
    );
    expect(app.ledger.count('g1')).toBe(0);
  });

  it('requires the morale level and names the choices', async () => {
    app = testApp();
    expect(expectError(await command(app, alice, 'morale', {}))).toBe('`morale` is required: one of shaken, leery, professional, resolved, fanatic.');
    expect(expectError(await command(app, alice, 'morale', { morale: 'brave' }))).toContain('`morale` must be one of shaken, leery');
    expect(expectError(await command(app, alice, 'morale', { morale: 'leery', reason: 'boredom' }))).toContain(
      '`reason` must be one of casualties_33, casualties_after_50',
    );
  });
});

describe('/disorder and /brigade', () => {
  it('/disorder records its ruling with no dice', async () => {
    app = testApp();
    const reply = expectMessage(await command(app, alice, 'disorder', { strength: 4, lost: 1, melee: 'defeated', unit: '2nd Foot' }));
    expect(reply.record).toMatchObject({ command: 'disorder', result: 'disorder', steps: [{ kind: 'disorder', markers: 2 }] });
    const row = app.ledger.get('g1', reply.record!.roll_id)!;
    expect(row).toMatchObject({ kind: 'check', dice: [], unit: '2nd Foot', result: 'disorder' });
    expect(reply.embed.fields![0]).toEqual({
      name: 'Causes',
      value: '`+1` lost 25% or more of its strength this turn (1 of 4)\n`+1` defeated in a melee',
      inline: false,
    });
    expect(JSON.stringify(reply.embed)).toContain('Rally order');
  });

  it('/disorder refuses more lost than there was', async () => {
    app = testApp();
    expect(expectError(await command(app, alice, 'disorder', { strength: 4, lost: 5 }))).toBe('`lost` (5) cannot be more than `strength` (4).');
    expect(expectError(await command(app, alice, 'disorder', { strength: 0, lost: 0 }))).toContain('`strength` must be a whole number from 1 to 100000');
    expect(app.ledger.count('g1')).toBe(0);
  });

  it('/brigade: shaken at exactly half, recorded', async () => {
    app = testApp();
    const reply = expectMessage(await command(app, alice, 'brigade', { original: 24, lost: 12, brigade: 'Highland Brigade' }));
    expect(reply.record).toMatchObject({ command: 'brigade', result: 'shaken' });
    expect(reply.embed.title).toBe('Brigade morale · Highland Brigade — Shaken');
    expect(app.ledger.get('g1', reply.record!.roll_id)!.unit).toBe('Highland Brigade');
    expect(expectMessage(await command(app, alice, 'brigade', { original: 24, lost: 11 })).record!.result).toBe('steady');
    expect(expectError(await command(app, alice, 'brigade', { original: 2, lost: 3 }))).toBe('`lost` (3) cannot be more than `original` (2).');
  });
});
