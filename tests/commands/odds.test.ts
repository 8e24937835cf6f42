import { attachmentData } from '../../src/core/command.js';
import { afterEach, describe, expect, it } from 'vitest';
import { alice, command, expectError, expectMessage, oddsRoll, testApp, type TestApp } from '../helpers/app.js';

let app: TestApp;
afterEach(() => app?.ledger.close());

const odds = (sub: string, options: Record<string, unknown>) =>
  app.router.handle({ type: 'command', name: 'odds', options: oddsRoll(sub, options), actor: alice });

describe('/odds', () => {
  it('rally: a table of every outcome, a PNG chart, no dice and no ledger row', async () => {
    app = testApp();
    const reply = expectMessage(await odds('rally', { disorder: 2, quality: 'militia', commander_near: true }));
    expect(reply.type === 'message' && reply.ephemeral).toBe(true);
    expect(reply.embed.description).toMatch(/Rally\s+11\/36\s+30\.6%/);
    expect(reply.embed.description).toMatch(/Retreat\s+5\/12\s+41\.7%/);
    expect(reply.embed.description).toMatch(/Rout, commander lost\s+5\/18\s+27\.8%/);
    expect(reply.embed.image).toEqual({ url: 'attachment://odds.png' });
    const png = reply.type === 'message' ? reply.files![0]! : undefined;
    expect(png!.name).toBe('odds.png');
    expect(attachmentData(png!).subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(app.ledger.count('g1')).toBe(0);
    expect(app.dice.pending()).toBe(0);
  });

  it('morale, hob and mc take the same options as their rolling commands', async () => {
    app = testApp();
    expect(expectMessage(await odds('morale', { morale: 'professional' })).embed.description).toMatch(/Morale firm\s+1\/2\s+50\.0%/);
    expect(expectMessage(await odds('hob', { unit: 'German 4-6-7' })).embed.description).toMatch(/Hero\s+1\/6/);
    expect(expectMessage(await odds('mc', { unit: 'German 4-6-7' })).embed.description).toMatch(/Passed → Hero\s+1\/216/);
    expect(app.ledger.count('g1')).toBe(0);
  });

  it('refuses what the rolling command refuses', async () => {
    app = testApp();
    expect(expectError(await odds('hob', { unit: 'German crew' }))).toContain('crews, inherent or temporary');
    expect(expectError(await odds('rally', { disorder: 0 }))).toContain('`disorder` must be a whole number from 1 to 30');
    expect(expectError(await odds('morale', { morale: 'leery', casualties: '3/2' }))).toContain('more lost than the original strength');
    expect(expectError(await odds('nonsense', {}))).toBe(
      '`roll` starts with "nonsense", which /odds does not know: it starts with one of mc, hob, rally, morale. (A rule pack\'s command takes odds_only:true.)',
    );
    expect(expectError(await app.router.handle({ type: 'command', name: 'odds', options: {}, actor: alice }))).toContain('`roll` is required');
    // The roll's options are the rolling command's own: one it does not take is named.
    expect(expectError(await odds('rally', { elr: 3 }))).toBe(
      '`elr` is not an option of /odds rally: its options are disorder, quality, band, enemy_in_sight, commander_near, unit.',
    );
  });
});

describe('/odds offers the roll as you type it', () => {
  const ask = (value: string) => app.router.handle({ type: 'autocomplete', name: 'odds', option: 'roll', value, actor: alice });
  it('the rolls it knows, then the roll’s own options and their values', async () => {
    app = testApp();
    expect(await ask('')).toEqual({
      type: 'choices',
      choices: ['mc', 'hob', 'rally', 'morale'].map((n) => ({ name: `${n} …`, value: `${n} ` })),
    });
    expect(await ask('/ra')).toEqual({ type: 'choices', choices: [{ name: 'rally …', value: 'rally ' }] });
    expect(await ask('rally disorder:2 qu')).toEqual({
      type: 'choices',
      choices: ['regular', 'elite', 'militia', 'irregular'].map((q) => ({ name: `rally disorder:2 quality:${q}`, value: `rally disorder:2 quality:${q}` })),
    });
    expect(await ask('morale cover:h')).toEqual({ type: 'choices', choices: [{ name: 'morale cover:hard', value: 'morale cover:hard' }] });
  });

  it('a typed roll is read as its command reads it: quotes, a value up to the next option, a roster unit', async () => {
    app = testApp();
    const r = expectMessage(
      await app.router.handle({ type: 'command', name: 'odds', options: { roll: '/mc unit:German 4-6-7 check:rally leader_drm:-1' }, actor: alice }),
    );
    expect(r.embed.title).toBe('Odds · Rally · German 4-6-7');
    expect(expectError(await app.router.handle({ type: 'command', name: 'odds', options: { roll: 'rally 2' }, actor: alice }))).toBe(
      '`roll`: "2" is not option:value, like /odds roll:"rally disorder:2".',
    );
  });
});

describe('every rolled result carries its odds', () => {
  it('rally: this result and this or better, recorded with the roll', async () => {
    app = testApp();
    app.dice.push(2);
    const reply = expectMessage(await command(app, alice, 'rally', { disorder: 1 }));
    const field = reply.embed.fields!.find((f) => f.name === 'Odds')!;
    // Retreat is the worst result here: "this or better 100%" would say nothing.
    expect(field.value).toBe('this result 1/2 (50.0%) · no result is worse');
    expect((app.ledger.get('g1', reply.record!.roll_id)!.outcome as { odds: unknown }).odds).toEqual({
      exactly: '1/2',
      or_better: '1',
      distribution: { rally: '1/2', retreat: '1/2' },
    });
  });

  it('morale, hob and mc', async () => {
    app = testApp();
    app.dice.push(6, 5, 1, 3, 4, 3, 4);
    expect(expectMessage(await command(app, alice, 'morale', { morale: 'professional' })).embed.fields!.find((f) => f.name === 'Odds')!.value).toBe(
      'this result 1/2 (50.0%) · this or better 1/2 (50.0%)',
    );
    expect(JSON.stringify(expectMessage(await command(app, alice, 'hob', { unit: 'German 4-6-7' })).embed)).toContain('this result 11/36');
    expect(JSON.stringify(expectMessage(await command(app, alice, 'mc', { unit: 'German 4-6-7' })).embed)).toContain('this result 1/6 (16.7%)');
  });
});
