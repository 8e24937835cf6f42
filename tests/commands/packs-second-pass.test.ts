import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { alice, bob, command, expectError, expectMessage, gm, press, rollWith, subcommand, testApp, type TestApp } from '../helpers/app.js';

/** The second pass through the router: every shipped example installs and rolls; a pack's re-roll on the built-in re-roll's rails; the reply's words and faces. */

let app: TestApp;
beforeEach(() => {
  app = testApp();
});
afterEach(() => app.ledger.close());

const install = async (example: string) => expectMessage(await subcommand(app, gm, 'pack', 'install', { example }));
const rows = (name: string) => app.ledger.history.page({ guildId: 'g1', command: name, kinds: 'all' }, 50, 0).rows;
const field = (embed: { fields?: { name: string; value: string }[] }, name: string) => embed.fields?.find((f) => f.name === name)?.value;

describe('the shipped examples, installed through the router', () => {
  it.each<[string, string, Record<string, unknown>, number[], string]>([
    ['bolt-action-order', 'bolt-action-order', { morale: 9, pins: 1 }, [3, 4], 'Bolt Action — order test — Passed'],
    ['warhammer-break', 'warhammer-break', { leadership: 8, lost_by: 2 }, [5, 4], 'Warhammer — break test — Breaks and flees'],
    ['lightning-war-morale', 'lightning-war-morale', { morale: 'professional' }, [4, 4, 3], 'Lightning War — morale check — Morale firm'],
    ['chain-of-command-force-morale', 'coc-force-morale', { cause: 'leader_hit', force_morale: 1 }, [2, 4], 'Chain of Command — force morale — Morale falls'],
    ['call-of-cthulhu-sanity', 'coc-sanity', { sanity: 30, horror: 2 }, [80, 3, 4], 'Call of Cthulhu — sanity roll — Shaken · Sanity lost'],
    ['d20-will-save', 'd20-will-test', { will: 3 }, [12], 'Will test (d20) — Resists'],
    ['sharp-practice-rally', 'sharp-practice-rally', { level: 2, shock: 3 }, [5, 1], 'Sharp Practice — rally — Shock removed'],
    ['fire-and-fury-maneuver', 'ff-maneuver', { order: 'charge' }, [2], 'Fire and Fury — maneuver — Falls back worn'],
  ])('%s installs as /%s and rolls', async (example, name, options, dice, title) => {
    await install(example);
    expect((await rollWith(app, name, options, dice)).embed.title).toBe(title);
    expect(rows(name)).toHaveLength(1);
  });
});

describe('a reply of the second pass', () => {
  it('names a follow-up by its label, shows a d100 as its number and d6 as pips, and says when a bound fires and holds a change', async () => {
    await install('call-of-cthulhu-sanity');
    const r = await rollWith(app, 'coc-sanity', { sanity: 3, horror: 2 }, [80, 3, 4, 9]);
    const names = r.embed.fields!.map((f) => f.name);
    expect(names).toContain('Sanity loss · Dice');
    expect(names).toContain('Madness · Dice');
    expect(names.some((n) => /^(loss|madness) /.test(n))).toBe(false);
    expect(field(r.embed, 'Dice')).toBe('**80** → Original **80**');
    expect(field(r.embed, 'Sanity loss · Dice')).toBe('⚂ **3** · ⚃ **4** → Original **7**');
    const results = r.embed.fields!.filter((f) => f.name === 'Result').map((f) => f.value);
    expect(results[1]).toContain('sanity: 0 (−7 asked for, kept within its bounds)\nsanity reached 0: Madness follows');
  });

  it('says a bound reached, in the reader’s language for the bot’s words and the author’s for the effect', async () => {
    await install('chain-of-command-force-morale');
    const r = await rollWith(app, 'coc-force-morale', { cause: 'leader_hit', force_morale: 1 }, [2, 4]);
    expect(field(r.embed, 'Result')).toContain('force morale reached 0: Force morale reaches 0: the side breaks and leaves the table.');
  });
});

describe("a pack's re-roll: a button under the reply, the roll's owner only, once, a linked roll with its own odds", () => {
  it('is offered after the results its `when` names, taken once by the owner, and checked by /verify', async () => {
    await install('d20-will-save');
    const first = await rollWith(app, 'd20-will-test', { will: -2 }, [12]);
    const id = first.record!.roll_id;
    expect(first.buttons).toEqual([{ custom_id: `v1:pack_reroll:${id}`, label: 'Spend inspiration — re-roll', style: 'primary' }]);
    expect((await rollWith(app, 'd20-will-test', { will: -2 }, [18])).buttons).toEqual([]);
    expect(expectError(await press(app, bob, first.buttons[0]!.custom_id))).toBe('Only Alice, who made this roll, may take its re-roll.');
    expect(expectError(await press(app, gm, first.buttons[0]!.custom_id))).toMatch(/^Only Alice/);
    app.dice.push(19);
    const again = expectMessage(await press(app, alice, first.buttons[0]!.custom_id));
    expect(again.type).toBe('update');
    expect(again.embed.title).toBe('Will test (d20) — Resists');
    expect(again.buttons).toEqual([]);
    expect(field(again.embed, 'Spend inspiration — re-roll · Odds')).toMatch(/^this result 3\/20 /);
    const [reroll] = rows('d20-will-test').filter((r) => r.kind === 'reroll');
    expect(reroll).toMatchObject({ parent_id: id, result: 'pass', dice: [19] });
    expect((reroll!.input as { reroll: unknown }).reroll).toEqual({ of: id, test: 'will' });
    expect(expectError(await press(app, alice, first.buttons[0]!.custom_id))).toMatch(/^This roll was re-rolled already \(re-roll /);
    const verified = expectMessage(await command(app, gm, 'verify', {}));
    expect(`${verified.embed.title}\n${verified.embed.description}`).toMatch(/3 rule pack rolls ruled again from their pack/);
  });
});

describe("a pack's re-roll lapses as the built-in one does", () => {
  it('when its game moves to another turn, and when the game ends: refused, and no die drawn', async () => {
    await install('d20-will-save');
    expectMessage(await subcommand(app, alice, 'game', 'start', { system: 'd20-will-test', name: 'Long Night' }));
    expectMessage(await subcommand(app, alice, 'game', 'turn', { number: 1 }));
    const first = await rollWith(app, 'd20-will-test', { will: -2 }, [12]);
    const lapsing = await rollWith(app, 'd20-will-test', { will: -2 }, [11]);
    expect(first.buttons).toHaveLength(1);
    // In its own turn the offer stands.
    app.dice.push(19);
    expect(expectMessage(await press(app, alice, first.buttons[0]!.custom_id)).type).toBe('update');
    expectMessage(await subcommand(app, alice, 'game', 'turn', { number: 2 }));
    const id = lapsing.record!.roll_id;
    app.dice.push(20);
    expect(expectError(await press(app, alice, lapsing.buttons[0]!.custom_id))).toBe(
      `The offer of Spend inspiration — re-roll on roll ${id} has lapsed: turn 1 is over (the game is at turn 2).`,
    );
    expect(app.dice.pending()).toBe(1);
    app.dice.clear();
    const inTurnTwo = await rollWith(app, 'd20-will-test', { will: -2 }, [10]);
    app.dice.push(20);
    expectMessage(await subcommand(app, alice, 'game', 'end', {}));
    expect(expectError(await press(app, alice, inTurnTwo.buttons[0]!.custom_id))).toBe(
      `The offer of Spend inspiration — re-roll on roll ${inTurnTwo.record!.roll_id} has lapsed: the game has ended.`,
    );
    expect(rows('d20-will-test').filter((r) => r.kind === 'reroll')).toHaveLength(1);
    expect(app.dice.pending()).toBe(1);
  });
});

describe("a pack's re-roll outside a game", () => {
  it('stands while no game runs in the channel, and lapses once one starts there', async () => {
    await install('d20-will-save');
    const first = await rollWith(app, 'd20-will-test', { will: -2 }, [12]);
    const second = await rollWith(app, 'd20-will-test', { will: -2 }, [11]);
    app.dice.push(19);
    expect(expectMessage(await press(app, alice, first.buttons[0]!.custom_id)).type).toBe('update');
    expectMessage(await subcommand(app, alice, 'game', 'start', { system: 'd20-will-test', name: 'Later' }));
    app.dice.push(20);
    expect(expectError(await press(app, alice, second.buttons[0]!.custom_id))).toBe(
      `The offer of Spend inspiration — re-roll on roll ${second.record!.roll_id} has lapsed: a game has started in this channel since.`,
    );
    expect(app.dice.pending()).toBe(1);
  });
});
