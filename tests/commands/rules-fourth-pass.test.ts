import { describe, expect, it } from 'vitest';
import type { Reply } from '../../src/core/command.js';
import { alice, appWithGame, bob, command, expectError, expectMessage, gm, rollWith, subcommand, testApp } from '../helpers/app.js';

// Rules, fourth pass: what a rules lawyer and a dice-notation user still caught, each through the router with
// the dice pinned. Every expected value is worked by hand from the rule text and written here.

const steps = (r: Reply) => {
  const m = expectMessage(r);
  return m.record!.steps as unknown as Record<string, unknown>[];
};
const rows = (app: ReturnType<typeof testApp>) => (app.ledger.db.prepare('SELECT count(*) AS n FROM rolls').get() as { n: number }).n;

describe('ASL: a broken unit outside the data breaks to the ML its general rule gives', () => {
  it('a broken Polish 1st Line 4-5-7 is ML 7 broken (their own ML, not the Allied Minor −1): 1MC Final 7 passes', async () => {
    const app = testApp();
    const r = await rollWith(app, 'mc', { unit: 'Polish 4-5-7', class: 'first_line', broken: true, number: 1 }, [3, 3]);
    expect(steps(r)[0]).toMatchObject({ original: 6, final: 7, ml: 7, result: 'passed' });
  });

  it('a broken Polish elite 4-5-8 is ML 8; a broken Polish 2nd Line 4-4-7 keeps the −1 (ML 6)', async () => {
    const app = testApp();
    expect(steps(await rollWith(app, 'mc', { unit: 'Polish 4-5-8', class: 'elite', broken: true }, [4, 4]))[0]).toMatchObject({
      final: 8,
      ml: 8,
      result: 'passed',
    });
    expect(steps(await rollWith(app, 'mc', { unit: 'Polish 4-4-7', class: 'second_line', broken: true }, [3, 4]))[0]).toMatchObject({
      final: 7,
      ml: 6,
      result: 'casualty_reduction',
    });
  });

  it('a broken pre-6/42 American 4-4-7 (2nd Line) breaks to ML 7, its good-order ML (G17.2), not 8: 1MC Final 8 fails', async () => {
    const app = testApp();
    const r = await rollWith(app, 'mc', { unit: 'American 4-4-7', class: 'second_line', broken: true, number: 1 }, [4, 3]);
    expect(steps(r)[0]).toMatchObject({ original: 7, final: 8, ml: 7, result: 'casualty_reduction' });
    // And the Green 3-3-6: ML 6 broken, where a post-6/42 Green breaks one higher.
    expect(steps(await rollWith(app, 'mc', { unit: 'American 3-3-6', class: 'green', broken: true }, [3, 4]))[0]).toMatchObject({ final: 7, ml: 6 });
  });
});

describe("ASL: a berserk leader's companions", () => {
  it('an unknown counter with its ML given takes its NTC against that ML, with no class asked for', async () => {
    const app = testApp();
    // HoB 5+5 = 10, −1 for the leader (counts as elite): 9, Berserk; the companion's NTC 3+3 − 1 (his leadership) = 5 ≤ 8.
    const r = await rollWith(app, 'hob', { unit: 'German 9-1', companions: 'German 5-5-8 ml:8' }, [5, 5, 3, 3]);
    const s = steps(r);
    expect(s[0]).toMatchObject({ final: 9, result: 'berserk' });
    expect(s[1]).toMatchObject({ kind: 'ntc', unit: 'German 5-5-8', ml: 8, final: 5, result: 'berserk' });
  });

  it('a crew listed without an ML is not refused: crews take no NTC (A15.1), so only the squad rolls', async () => {
    const app = testApp();
    const r = await rollWith(app, 'hob', { unit: 'German 9-1', companions: 'German crew, German 4-6-7' }, [5, 5, 4, 4]);
    const s = steps(r);
    expect(s.map((x) => x.unit ?? x.kind)).toEqual(['hob', 'German 4-6-7']);
    expect(s[1]).toMatchObject({ ml: 7, final: 7, result: 'berserk' });
  });
});

describe('ASL: Commissars are Russian (A25.22)', () => {
  it.each(['in_location', 'leads_rally'])('commissar:%s on a German squad is refused, naming the rule; nothing is rolled or recorded', async (role) => {
    const app = testApp();
    const before = rows(app);
    const check = role === 'leads_rally' ? { check: 'rally', broken: true } : {};
    const message = expectError(await command(app, alice, 'mc', { unit: 'German 4-6-7', commissar: role, ...check }));
    expect(message).toBe(`\`commissar:${role}\`: Commissars are Russian (A25.22), and German 4-6-7 is not. Nothing was rolled or recorded.`);
    expect(rows(app)).toBe(before);
  });

  it('on a Russian squad he still adds his +1 ML: Final 8 = ML 8 on an IFT-caused MC pins', async () => {
    const app = testApp();
    expect(steps(await rollWith(app, 'mc', { unit: 'Russian 4-4-7', commissar: 'in_location' }, [4, 4]))[0]).toMatchObject({
      final: 8,
      ml: 8,
      result: 'pinned',
    });
  });
});

describe('ASL: a Partisan leader battle hardens to Fanatic (A15.3 names "partisan" beside the best leader)', () => {
  it('Partisan 8-1, HoB 3+3 + 1 (Partisan) = 7: Battle Hardening makes him Fanatic, not a 9-1', async () => {
    const app = testApp();
    const s = steps(await rollWith(app, 'hob', { unit: 'Partisan 8-1' }, [3, 3]));
    expect(s[0]).toMatchObject({ final: 7, result: 'battle_hardening', fanatic: true });
    expect(String(s[0]!.effect)).toMatch(/Fanatic instead/);
    expect(s[0]!.unit_after).toBeUndefined();
  });
});

describe('Hearts of Tin: disorder markers have no ceiling (a sanity bound of 30)', () => {
  it('/rally disorder:12 rolls: 6 − 11 = −5, a rout; the reply shows the true count', async () => {
    const app = testApp();
    const r = await rollWith(app, 'rally', { disorder: 12 }, [6]);
    expect(steps(r)[0]).toMatchObject({ original: 6, final: -5, result: 'rout' });
    expect(JSON.stringify(expectMessage(r).embed)).toContain('12 disorder markers');
  });

  it('/unit add and /unit edit take more than 10; the roster shows the count; past 30 is refused naming the bound', async () => {
    const app = await appWithGame('hearts-of-tin');
    expectMessage(await subcommand(app, alice, 'unit', 'add', { name: 'Rifles', fields: 'original:4 disorder:14' }));
    expect(JSON.stringify(expectMessage(await subcommand(app, alice, 'unit', 'show', { unit: 'Rifles' })).embed)).toMatch(/14/);
    expectMessage(await subcommand(app, alice, 'unit', 'edit', { unit: 'Rifles', fields: 'disorder:30' }));
    expect(expectError(await subcommand(app, alice, 'unit', 'edit', { unit: 'Rifles', fields: 'disorder:31' }))).toBe(
      '`fields`: disorder must be a whole number from 0 to 30 (you gave "31").',
    );
    expect(expectError(await command(app, alice, 'rally', { disorder: 31 }))).toBe('`disorder` must be a whole number from 1 to 30 (you gave 31).');
  });
});

describe('/roll dice: what other bots users type', () => {
  it.each([
    ['3d6 3', 'character 5 ("3"): a space never joins two numbers: put + or - between terms (e.g. 3d6+3), or write the number whole'],
    ['6 4d6', 'character 3 ("4"): a space never joins two numbers: put + or - between terms (e.g. 3d6+3), or write the number whole'],
    ['1d6dl1', 'character 6 ("1"): a single die cannot drop one: drop from two or more dice (e.g. 2d20dl1)'],
    ['-d20', 'character 1 ("-"): a sign before a die with no count is not a dice term here; for disadvantage write 2d20kl1 (the lower of two d20)'],
    ['+d20', 'character 1 ("+"): a sign before a die with no count is not a dice term here; for advantage write 2d20kh1 (the higher of two d20)'],
  ])('%s is refused: %s', async (expression, why) => {
    const app = testApp();
    const message = expectError(await subcommand(app, alice, 'roll', 'dice', { expression }));
    expect(message.startsWith(`\`expression\` "${expression.replace(/[+-]/g, (c) => c)}": ${why}.`)).toBe(true);
    expect(rows(app)).toBe(0);
  });

  it('20d20kh10 gets exact odds; 1d1000kh1 (every die kept) is the same as 1d1000', async () => {
    const app = testApp();
    app.dice.push(...Array.from({ length: 20 }, (_, i) => (i % 20) + 1));
    const r = expectMessage(await subcommand(app, alice, 'roll', 'dice', { expression: '20d20kh10' }));
    expect(JSON.stringify(r.embed)).not.toContain('odds not computed');
    app.dice.push(500);
    const one = JSON.stringify(expectMessage(await subcommand(app, alice, 'roll', 'dice', { expression: '1d1000kh1' })).embed);
    expect(one).toContain('1/1000');
    expect(one).not.toContain('odds not computed');
  });
});

describe('/dr: a Sniper Attack dr shows its notes (A14.3)', () => {
  it.each([
    [
      1,
      'Sniper attack: eliminates an SMC, a Dummy stack or a Sniper; stuns and recalls a CE crew; breaks an MMC or a vehicle’s inherent crew; immobilizes an unarmored vehicle (A14.3)',
    ],
    [2, 'Sniper attack: eliminates a Dummy stack; wounds an SMC; stuns a CE crew; pins an MMC, a vehicle’s inherent crew or a Sniper (A14.3)'],
  ])('dr %i', async (die, note) => {
    const app = testApp();
    const r = await rollWith(app, 'dr', { category: 'SA' }, [die]);
    expect(expectMessage(r).record?.notes).toEqual([note]);
  });

  it('a 3 has none', async () => {
    const app = testApp();
    expect(expectMessage(await rollWith(app, 'dr', { category: 'SA' }, [3])).record?.notes).toEqual([]);
  });
});

describe('/stats: two groups of one shape', () => {
  it('one roll against one roll is "too few rolls to compare", not "no sign they differ"; p below 0.001 reads "p < 0.001"', async () => {
    const app = await appWithGame('asl');
    expectMessage(await subcommand(app, alice, 'game', 'join', { side: 'axis' }));
    expectMessage(await subcommand(app, bob, 'game', 'join', { side: 'allied' }));
    await rollWith(app, 'dr', { category: 'IFT' }, [1, 1], alice);
    await rollWith(app, 'dr', { category: 'IFT' }, [6, 6], bob);
    const text = JSON.stringify(expectMessage(await command(app, gm, 'stats', { by: 'side' })).embed);
    expect(text).toContain('Allied vs Axis: too few rolls to compare (1 and 1; 142 each needed)');
    expect(text).not.toContain('no sign they differ');
    expect(text).not.toContain('p = <');
  });
});
