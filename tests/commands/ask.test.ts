import { describe, expect, it } from 'vitest';
import { createRouter } from '../../src/app.js';
import type { Actor, Reply, UserFacts } from '../../src/core/command.js';
import { ConsoleSession } from '../../src/console/session.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { createLogger } from '../../src/log.js';
import { alice, appWithGame, bob, expectError, expectMessage, gm, press, queueRoller, subcommand, testApp, type TestApp } from '../helpers/app.js';
import { tmpDb } from '../helpers/tmp.js';

// Requested rolls: a GM or a player asks a named player for a roll; only that player's press
// answers it, with their own roll, linked on the chain to the request.

const carol: Actor = { ...alice, userId: 'carol', userName: 'Carol' };
const member = (name: string): UserFacts => ({ name, bot: false, member: true });
const KNOWN: Record<string, UserFacts> = { bob: member('Bob'), alice: member('Alice'), carol: member('Carol'), gm: member('Game Master') };
const ROLL = "mc unit:'Squad 3' number:1";

/** /ask roll as a transport sends it: the asked player resolved beside the options. */
const ask = (app: Pick<TestApp, 'router'>, actor: Actor, player: string, roll = ROLL, users: Record<string, UserFacts> = KNOWN) =>
  app.router.handle({ type: 'command', name: 'ask', subcommand: 'roll', options: { player, roll }, actor, users });

/** The request's id, read from its one button. */
function requestOf(reply: Reply): string {
  const m = expectMessage(reply);
  expect(m.buttons).toHaveLength(1);
  const id = /^v1:ask:([0-9a-z]+)$/.exec(m.buttons[0]!.custom_id)?.[1];
  expect(id).toBeDefined();
  return id!;
}

/** An ASL game started by Alice with Bob's squad on its roster. */
const aslGame = () => appWithGame('asl', { 'Squad 3': { counter: 'German 4-6-7' } }, bob);

describe('/ask roll', () => {
  it('posts a request naming the asked player, the roll and its exact odds, with one button', async () => {
    const app = await aslGame();
    const reply = expectMessage(await ask(app, alice, 'bob'));
    expect(reply.type === 'message' && reply.ephemeral).toBe(false);
    expect(reply.embed.title).toContain('Roll requested');
    expect(reply.embed.description).toContain('<@bob>');
    expect(reply.embed.description).toContain("/mc unit:'Squad 3' number:1");
    // The odds table, as /odds shows it, and its chart.
    expect(reply.embed.description).toMatch(/result\s+chance\s+%\nPassed\s+1\/4/);
    expect(reply.embed.description).not.toContain('nothing was recorded');
    expect(reply.type === 'message' && reply.files?.map((f) => f.name)).toEqual(['odds.png']);
    const id = requestOf(reply);
    const row = app.ledger.get('g1', id)!;
    expect(row).toMatchObject({ kind: 'request', command: 'ask', user_id: 'alice', input: { player: 'bob', roll: ROLL } });
    expect(app.ledger.requests.request('g1', id)).toMatchObject({ state: 'open', asker_id: 'alice', player_id: 'bob', command: 'mc' });
  });

  it("is answered by the asked player's press: the roll is theirs, its row names the request", async () => {
    const app = await aslGame();
    const id = requestOf(await ask(app, alice, 'bob'));
    app.dice.push(3, 4);
    const answer = expectMessage(await press(app, bob, `v1:ask:${id}`));
    expect(app.dice.pending()).toBe(0);
    const roll = app.ledger.get('g1', answer.record!.roll_id)!;
    expect(roll).toMatchObject({ kind: 'roll', command: 'mc', user_id: 'bob', parent_id: id, unit: 'Squad 3' });
    expect(app.ledger.requests.request('g1', id)).toMatchObject({ state: 'answered', answer_id: roll.id, settled_by: 'bob' });
    expect(answer.embed.description).toMatch(/Asked of <@bob> by <@alice> .*; answered after/);
  });

  it('says how long the request waited, on the ledger clock', async () => {
    let now = new Date('2026-03-01T10:00:00.000Z');
    const ledger = Ledger.open(tmpDb(), { now: () => now });
    const dice = queueRoller();
    const router = createRouter({ ledger, log: createLogger({ level: 'silent', write: () => undefined }), roller: dice, gameRoller: () => dice });
    const app = { router };
    expectMessage(await subcommand({ router } as TestApp, alice, 'game', 'start', { system: 'asl', name: 'G' }));
    const id = requestOf(await ask(app, alice, 'bob', 'mc unit:"German 4-6-7" number:1'));
    now = new Date('2026-03-01T13:12:30.000Z');
    dice.push(3, 4);
    const answer = expectMessage(await router.handle({ type: 'button', customId: `v1:ask:${id}`, actor: bob }));
    expect(answer.embed.description).toContain('answered after 3 h 12 min');
    const roll = ledger.get('g1', answer.record!.roll_id)!;
    // How long it took is on the chain: the request's row and its answer's, each with its time.
    expect(Date.parse(roll.created_at) - Date.parse(ledger.get('g1', id)!.created_at)).toBe((3 * 3600 + 12 * 60 + 30) * 1000);
  });

  it("is refused for anyone else's press, twice, and once cancelled", async () => {
    const app = await aslGame();
    const id = requestOf(await ask(app, alice, 'bob'));
    expect(expectError(await press(app, carol, `v1:ask:${id}`))).toContain('only they can answer it');
    expect(expectError(await press(app, alice, `v1:ask:${id}`))).toContain('only they can answer it');
    expect(app.ledger.requests.request('g1', id)!.state).toBe('open');
    app.dice.push(3, 4);
    const first = expectMessage(await press(app, bob, `v1:ask:${id}`));
    expect(expectError(await press(app, bob, `v1:ask:${id}`))).toContain(`answered already (roll \`${first.record!.roll_id}\`)`);
    expect(app.ledger.children('g1', id).filter((r) => r.kind === 'roll')).toHaveLength(1);

    const other = requestOf(await ask(app, alice, 'bob'));
    expectMessage(await subcommand(app, alice, 'ask', 'cancel', { request: other }));
    expect(expectError(await press(app, bob, `v1:ask:${other}`))).toContain('cancelled');
    expect(expectError(await press(app, bob, 'v1:ask:zzzzzzzzzz'))).toContain('no requested roll');
  });

  it('is answered once when two presses are in flight together (the conditional update decides, not the read before it)', async () => {
    const app = await aslGame();
    const id = requestOf(await ask(app, alice, 'bob'));
    app.dice.push(3, 4, 3, 4);
    const both = await Promise.all([
      app.router.handle({ type: 'button', customId: `v1:ask:${id}`, actor: bob, interactionId: '1001' }),
      app.router.handle({ type: 'button', customId: `v1:ask:${id}`, actor: bob, interactionId: '1002' }),
    ]);
    expect(both.map((r) => r.type).sort()).toEqual(['error', 'message']);
    expect(expectError(both.find((r) => r.type === 'error')!)).toContain('answered already');
    expect(app.ledger.children('g1', id).filter((r) => r.kind === 'roll')).toHaveLength(1);
  });

  it('is cancelled by its asker or a GM, no one else; the cancel is a row pointing at it', async () => {
    const app = await aslGame();
    const id = requestOf(await ask(app, alice, 'bob'));
    expect(expectError(await subcommand(app, bob, 'ask', 'cancel', { request: id }))).toContain('Only <@alice>, who asked, or a GM');
    const done = expectMessage(await subcommand(app, gm, 'ask', 'cancel', { request: id }));
    expect(done.embed.title).toBe('Request cancelled');
    expect(app.ledger.requests.request('g1', id)).toMatchObject({ state: 'cancelled', settled_by: 'gm' });
    expect(app.ledger.children('g1', id)).toMatchObject([{ kind: 'request', command: 'ask', user_id: 'gm', input: { request: id } }]);
    expect(expectError(await subcommand(app, alice, 'ask', 'cancel', { request: id }))).toContain('cancelled');
  });

  it("lists the game's open requests, and offers them to cancel", async () => {
    const app = await aslGame();
    const a = requestOf(await ask(app, alice, 'bob'));
    const b = requestOf(await ask(app, bob, 'alice', 'hob unit:"German 4-6-7"'));
    const listed = expectMessage(await subcommand(app, alice, 'ask', 'list'));
    expect(listed.embed.description).toContain(`\`${a}\` <@bob>`);
    expect(listed.embed.description).toContain(`\`${b}\` <@alice>`);
    const offered = await app.router.handle({ type: 'autocomplete', name: 'ask', subcommand: 'cancel', option: 'request', value: '', actor: alice });
    expect(offered.type === 'choices' && offered.choices.map((c) => c.value)).toEqual([a, b]);
    app.dice.push(3, 4);
    expectMessage(await press(app, bob, `v1:ask:${a}`));
    const after = expectMessage(await subcommand(app, alice, 'ask', 'list'));
    expect(after.embed.description).not.toContain(a);
    expect(after.embed.description).toContain(b);
  });

  it('asks for a sealed roll when told: the answer is sealed', async () => {
    const app = await aslGame();
    const id = requestOf(await ask(app, gm, 'bob', `${ROLL} sealed:true`));
    app.dice.push(3, 4);
    const answer = expectMessage(await press(app, bob, `v1:ask:${id}`));
    expect(answer.record).toMatchObject({ sealed: true, result: null });
    expect(app.ledger.get('g1', answer.record!.roll_id)).toMatchObject({ parent_id: id, user_id: 'bob' });
  });

  it('completes the roll as /odds does', async () => {
    const app = await aslGame();
    const typed = async (value: string) => {
      const r = await app.router.handle({ type: 'autocomplete', name: 'ask', subcommand: 'roll', option: 'roll', value, actor: alice });
      return r.type === 'choices' ? r.choices.map((c) => c.value) : [];
    };
    expect(await typed('m')).toEqual(['mc ', 'morale ']);
    expect(await typed('mc se')).toContain('mc sealed:true');
  });
});

describe('/ask refusals', () => {
  it('refuses an unknown player, a bot, a roll the command would refuse, a channel with no game, and a stranger', async () => {
    const app = await aslGame();
    expect(expectError(await ask(app, alice, 'dave'))).toContain('`player` must be a member of this server');
    expect(expectError(await ask(app, alice, 'dave', ROLL, { dave: { name: 'Dave', bot: false, member: false } }))).toContain('must be a member');
    expect(expectError(await ask(app, alice, 'robo', ROLL, { robo: { name: 'Robo', bot: true, member: true } }))).toContain('names a bot');
    expect(expectError(await ask(app, alice, 'bob', 'xyz unit:A'))).toContain('starts with "xyz", which /ask roll cannot ask for');
    expect(expectError(await ask(app, alice, 'bob', 'mc number:9'))).toContain('`number` must be a whole number from 0 to 4');
    expect(expectError(await ask(app, alice, 'bob', 'mc unit:"Squad 3" bogus:1'))).toContain('`bogus` is not an option of /mc');
    expect(expectError(await ask(app, carol, 'bob'))).toContain('Only a GM or a player of G');
    // A GM asks whoever plays; nothing was recorded for the refusals.
    requestOf(await ask(app, gm, 'bob'));
    expect(app.ledger.history.page({ guildId: 'g1', kinds: ['request'] }, 10, 0).rows).toHaveLength(1);
    const empty = testApp();
    expect(expectError(await ask(empty, gm, 'bob'))).toContain('No game is running in this channel');
  });
});

describe('/ask in the console', () => {
  it('names players as it names users: /ask roll player:bob …, then as bob, press', async () => {
    const app = await aslGame();
    const session = new ConsoleSession(app.router, alice);
    const asked = await session.run(`/ask roll player:bob roll:"${ROLL}"`);
    expect(asked && 'json' in asked && asked.json.ok).toBe(true);
    await session.run('as bob');
    app.dice.push(3, 4);
    const pressed = await session.run('press');
    expect(pressed && 'json' in pressed ? pressed.json : {}).toMatchObject({ ok: true, command: 'mc' });
    session.close();
  });
});
