import { COMMANDS } from '../../commands/index.js';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bot } from '../../src/discord/bot.js';
import { commandDefinitions } from '../../src/discord/definitions.js';
import type { TestApp } from '../helpers/app.js';
import { startHarness, type Harness } from '../helpers/discord.js';
import {
  APP_ID,
  autocomplete,
  buttonPress,
  type FakeDiscord,
  GM_ROLE_ID,
  gmRoomOf,
  lockedChannelOf,
  PERMISSION_MANAGE_GUILD,
  slashCommand,
  voiceChannelOf,
  type Member,
} from './fake-discord.js';

// A recognisable fake token: it must never appear in a log line.
const TOKEN = 'MTEwMDAwMDAwMDAwMDAwMDAx.FAKE00.ThisIsTheE2eTestTokenDoNotLogIt0123456789';
const GUILD = '900000000000000001';
const OTHER_GUILD = '900000000000000002';
const alice: Member = { id: '300000000000000001', username: 'alice', nick: 'Alice of the 1st' };
const bob: Member = { id: '300000000000000002', username: 'bob' };
const referee: Member = { id: '300000000000000003', username: 'referee', permissions: PERMISSION_MANAGE_GUILD };

let fake: FakeDiscord;
let app: TestApp;
let bot: Bot;

let harness: Harness;

beforeAll(async () => {
  // Work still running after 1 s is deferred; /export and a rally named "Slowpoke" are made slower than that.
  harness = await startHarness(TOKEN, [GUILD, OTHER_GUILD], { deferAfterMs: 1_000, slow: (name) => (name === 'export' ? 1_300 : 0), slowUnit: 'Slowpoke' });
  ({ fake, app, bot } = harness);
});

afterAll(async () => harness?.stop());

describe('the real discord.js client against a local fake Discord', () => {
  it('logged in over the gateway and sees both guilds', () => {
    expect(fake.identified).toBe(1);
    expect(bot.client.guilds.cache.map((g) => g.id).sort()).toEqual([GUILD, OTHER_GUILD]);
    expect(fake.authHeaders).toContain(`Bot ${TOKEN}`);
  });

  it('slash command in → public embed out, and one ledger row', async () => {
    const before = app.ledger.count(GUILD);
    app.dice.push(4);
    const cb = await fake.send(slashCommand('rally', { disorder: 2, unit: '1st Foot' }, { member: alice }));
    expect(cb.type).toBe(4);
    expect(cb.data.flags ?? 0).toBe(0);
    const [embed] = cb.data.embeds;
    expect(embed.title.split(' — ')[0]).toBe('Rally · 1st Foot');
    expect(embed.author.name).toBe('Alice of the 1st');
    expect(embed.fields.find((f: any) => f.name === 'Final').value).toBe('**3**');
    expect(embed.fields.find((f: any) => f.name === 'Result').value).toContain('**Retreat**');
    expect(cb.data.components).toEqual([]);
    expect(app.ledger.count(GUILD)).toBe(before + 1);
    const id = /roll (\w+)/.exec(embed.footer.text)![1]!;
    const row = app.ledger.get(GUILD, id)!;
    expect(row).toMatchObject({ user_id: alice.id, channel_id: String(BigInt(GUILD) + 1000n), result: 'retreat', dice: [4] });
    expect(app.ledger.verify(GUILD).ok).toBe(true);
  });

  it('the same interaction delivered twice over the gateway is answered and recorded once', async () => {
    const before = app.ledger.count(GUILD);
    app.dice.push(4, 4);
    const interaction = slashCommand('rally', { disorder: 2, unit: 'Twice' }, { member: alice });
    const first = await fake.send(interaction);
    const second = await fake.send(interaction);
    app.dice.clear();
    expect(first.data.embeds[0].title.split(' — ')[0]).toBe('Rally · Twice');
    expect(second.data.flags).toBe(64);
    expect(second.data.content).toContain('This interaction was already handled');
    expect(app.ledger.count(GUILD)).toBe(before + 1);
  });

  it('button press round trip: the re-roll updates the message and removes the button', async () => {
    app.dice.push(1);
    const first = await fake.send(slashCommand('rally', { disorder: 2, commander_near: true }, { member: alice }));
    const button = first.data.components[0].components[0];
    expect(button).toMatchObject({ type: 2, style: 1, label: 'Commander joins — re-roll' });
    const message = { id: '500000000000000001', embeds: first.data.embeds, components: first.data.components };

    app.dice.push(5);
    const denied = await fake.send(buttonPress(button.custom_id, message, { member: bob }));
    expect(denied.type).toBe(4);
    expect(denied.data.flags).toBe(64);
    expect(denied.data.content).toContain('Only Alice of the 1st, who rolled this rally, or a GM');

    const pressed = await fake.send(buttonPress(button.custom_id, message, { member: referee }));
    expect(pressed.type).toBe(7);
    expect(pressed.data.components).toEqual([]);
    const names = pressed.data.embeds[0].fields.map((f: any) => f.name);
    expect(names).toEqual(expect.arrayContaining(['First roll', 'Commander re-roll · Dice', 'Result']));
    const rollId = button.custom_id.split(':')[2];
    expect(app.ledger.children(GUILD, rollId).map((r) => [r.kind, r.user_id, r.result])).toEqual([['reroll', referee.id, 'rally']]);

    const again = await fake.send(buttonPress(button.custom_id, message, { member: referee }));
    expect(again.data.flags).toBe(64);
    expect(again.data.content).toContain('already joined');
  });

  it("autocomplete round trip offers this channel's units only", async () => {
    // Self-contained: the other server's channel holds only the unit rolled here.
    app.dice.push(5, 5);
    await fake.send(slashCommand('rally', { disorder: 1, unit: '2nd Secret' }, { member: bob }));
    await fake.send(slashCommand('rally', { disorder: 1, unit: 'Own Unit' }, { member: alice, guildId: OTHER_GUILD }));
    const cb = await fake.send(autocomplete('rally', { disorder: 1, unit: '' }, 'unit', { member: alice, guildId: OTHER_GUILD }));
    expect(cb.type).toBe(8);
    expect(cb.data.choices).toEqual([{ name: 'Own Unit', value: 'Own Unit' }]);
  });

  it('an invalid option → ephemeral error naming it, and no ledger row', async () => {
    const before = app.ledger.count(GUILD);
    const cb = await fake.send(slashCommand('rally', { disorder: 0 }, { member: alice }));
    expect(cb.type).toBe(4);
    expect(cb.data.flags).toBe(64);
    expect(cb.data.content).toBe('⚠️ `disorder` must be a whole number from 1 to 30 (you gave 0): a unit with no disorder does not need to rally.');
    expect(cb.data.embeds ?? []).toEqual([]);
    expect(app.ledger.count(GUILD)).toBe(before);
  });

  it('refuses to roll in a DM, where there is no server ledger', async () => {
    const cb = await fake.send(slashCommand('rally', { disorder: 1 }, { member: alice, guildId: null }));
    expect(cb.data.flags).toBe(64);
    expect(cb.data.content).toContain('works inside a server');
  });

  it('/odds sends its chart as an attachment (multipart) with the embed pointing at it', async () => {
    const interaction = slashCommand('odds', {}, { member: bob });
    interaction.data.options = [{ name: 'roll', type: 3, value: 'rally disorder:2' }] as never;
    const cb = await fake.send(interaction);
    expect(cb.type).toBe(4);
    expect(cb.data.flags).toBe(64);
    expect(cb.files).toEqual([expect.objectContaining({ filename: 'odds.png', png: true })]);
    expect(cb.files[0].bytes).toBeGreaterThan(1000);
    expect(cb.data.embeds[0].image.url).toBe('attachment://odds.png');
    expect(cb.data.attachments).toHaveLength(1);
  });

  it('remembers the message of each roll, for the links in /history', async () => {
    app.dice.push(5);
    const cb = await fake.send(slashCommand('rally', { disorder: 1, unit: 'Linked' }, { member: alice }));
    const rollId = /roll (\w+)/.exec(cb.data.embeds[0].footer.text)![1]!;
    const messageId = fake.messageIds.get(cb.interactionId)!;
    await expect.poll(() => app.ledger.history.messages([rollId]).get(rollId), { timeout: 60_000 }).toBe(messageId);
    const history = await fake.send(slashCommand('history', {}, { member: alice }));
    expect(history.data.embeds[0].description).toContain(`https://discord.com/channels/${GUILD}/${BigInt(GUILD) + 1000n}/${messageId}`);
  });

  it('a command still working after the defer delay is deferred, then the reply is edited in with its files', async () => {
    const before = fake.webhookEdits.length;
    const cb = await fake.send(slashCommand('export', {}, { member: referee }));
    expect(cb.type).toBe(5);
    expect(cb.data.flags).toBe(64);
    // This interaction's edit: an earlier test's slow reply may have made its own.
    const ours = () => fake.webhookEdits.slice(before).find((e) => e.method === 'PATCH');
    await expect.poll(ours, { timeout: 60_000 }).toBeDefined();
    const edit = ours()!;
    expect(edit.body._files.map((f: any) => f.filename)).toEqual([expect.stringMatching(/\.csv$/), expect.stringMatching(/\.jsonl$/), 'verify.html']);
  });

  it('a slow roll with a public result: deferred (ephemeral), then posted as its own message, the placeholder removed', async () => {
    const edits = fake.webhookEdits.length;
    app.dice.push(5);
    const cb = await fake.send(slashCommand('rally', { disorder: 1, unit: 'Slowpoke' }, { member: bob }));
    expect(cb.type).toBe(5);
    await expect.poll(() => fake.webhookEdits.slice(edits).map((e) => e.method), { timeout: 60_000 }).toEqual(['POST', 'DELETE']);
    const post = fake.webhookEdits[edits]!;
    expect(post.body.flags ?? 0).toBe(0);
    expect(JSON.stringify(post.body.embeds)).toContain('Slowpoke');
  });

  it('player seeds by commit-then-reveal: the dice wait for every committed seed', async () => {
    const where = { guildId: OTHER_GUILD, member: bob };
    const sub = (name: string, subName: string, options: Record<string, unknown>, member: Member) => {
      const i = slashCommand(name, {}, { guildId: OTHER_GUILD, member });
      i.data.options = [{ name: subName, type: 1, options: Object.entries(options).map(([k, v]) => ({ name: k, type: 3, value: v })) }] as never;
      return fake.send(i);
    };
    await sub('game', 'start', { system: 'hearts-of-tin', name: 'Quatre Bras' }, bob);
    const seed = 'bob is lucky — ünïcödé';
    const hash = createHash('sha256').update(seed, 'utf8').digest('hex');
    // One seed per player on a side: bob joins first; alice, on no side, is refused.
    expect((await sub('game', 'seed', { commit: hash }, alice)).data.content).toContain('Only a player on a side of Quatre Bras can commit to a seed');
    await sub('game', 'join', { side: 'allied' }, bob);
    await sub('game', 'join', { side: 'axis' }, alice);
    expect((await sub('game', 'seed', { commit: hash }, bob)).data.embeds[0].description).toContain('Commitment 1 taken');
    const waiting = await fake.send(slashCommand('rally', { disorder: 1 }, where));
    expect(waiting.data.content).toContain("Quatre Bras's dice wait for committed seeds to be revealed: bob");
    expect((await sub('game', 'seed', { reveal: 'not my seed' }, bob)).data.content).toContain('not the');
    expect((await sub('game', 'seed', { reveal: seed }, bob)).data.embeds[0].description).toContain('Every committed seed is revealed');
    expect((await sub('game', 'seed', { commit: hash }, alice)).data.content).toContain('commitments are closed');
    app.dice.push(6);
    expect((await fake.send(slashCommand('rally', { disorder: 1 }, where))).type).toBe(4);
    await sub('game', 'end', {}, bob);
  });

  it('a sealed roll: the channel sees that it happened; the GM channel gets the result', async () => {
    const gmChannel = '700000000000000001';
    await fake.send(slashCommand('config', {}, { member: referee }));
    const setChannel = slashCommand('config', {}, { member: referee });
    setChannel.data.options = [{ name: 'gm-channel', type: 1, options: [{ name: 'channel', type: 7, value: gmChannel }] }] as never;
    await fake.send(setChannel);
    app.dice.push(2);
    const posted = fake.channelMessages.length;
    const cb = await fake.send(slashCommand('rally', { disorder: 2, sealed: true, unit: 'Hidden' }, { member: bob }));
    const publicText = JSON.stringify(cb.data);
    expect(publicText).toContain('Sealed roll');
    expect(publicText).not.toMatch(/retreat|Retreat|Original|Final/);
    await expect.poll(() => fake.channelMessages.length, { timeout: 60_000 }).toBe(posted + 1);
    expect(fake.channelMessages[posted]!.channelId).toBe(gmChannel);
    expect(JSON.stringify(fake.channelMessages[posted]!.body)).toContain('**Retreat**');
  });

  // The roll log channel, through the real client: a public result's one-line copy with the message's link.
  it('/config log-channel: a public result is copied to the log channel in one line, linking the message', async () => {
    const logChannel = '700000000000000001';
    const set = slashCommand('config', {}, { member: referee });
    set.data.options = [{ name: 'log-channel', type: 1, options: [{ name: 'channel', type: 7, value: logChannel }] }] as never;
    await fake.send(set);
    app.dice.push(6);
    const posted = fake.channelMessages.length;
    await fake.send(slashCommand('rally', { disorder: 1, unit: 'Logged' }, { member: bob }));
    await expect.poll(() => fake.channelMessages.length, { timeout: 60_000 }).toBe(posted + 1);
    const copy = fake.channelMessages[posted]!;
    expect(copy.channelId).toBe(logChannel);
    const line = String((copy.body as { embeds: { description: string }[] }).embeds[0]!.description);
    expect(line).toMatch(/^<@\d+> · \*\*Rally · Logged — [A-Za-z!, ]+\*\* · `\w+` · \[message\]\(https:\/\/discord\.com\/channels\/\d+\/\d+\/\d+\)$/);
    const off = slashCommand('config', {}, { member: referee });
    off.data.options = [{ name: 'log-channel', type: 1, options: [] }] as never;
    await fake.send(off);
  });

  // The GMs' channel must be a text channel the bot can post in, checked when it is set.
  it('/config gm-channel refuses a voice channel and one where the bot may not post, naming what is missing', async () => {
    const configure = (channelId: string) => {
      const i = slashCommand('config', {}, { member: referee });
      i.data.options = [{ name: 'gm-channel', type: 1, options: [{ name: 'channel', type: 7, value: channelId }] }] as never;
      return fake.send(i);
    };
    const before = app.ledger.count(GUILD);
    const voice = await configure(voiceChannelOf(GUILD));
    expect(voice.data.flags).toBe(64);
    expect(voice.data.content).toBe(`⚠️ <#${voiceChannelOf(GUILD)}> is not a text channel: sealed results need a text or announcement channel.`);
    const locked = await configure(lockedChannelOf(GUILD));
    expect(locked.data.content).toContain(`The bot cannot post in <#${lockedChannelOf(GUILD)}>: it lacks Send Messages there.`);
    expect(app.ledger.count(GUILD)).toBe(before);
    const ok = await configure(gmRoomOf(GUILD));
    expect(ok.data.embeds[0].description).toBe(`Sealed results now go to <#${gmRoomOf(GUILD)}>.`);
    expect(app.ledger.settings.get(GUILD).gm_channel_id).toBe(gmRoomOf(GUILD));
    // The definitions offer only text channels in Discord's picker.
    const config = commandDefinitions(COMMANDS).find((c) => c.name === 'config')!;
    expect((config.options!.find((o) => o.name === 'gm-channel') as any).options[0].channel_types).toEqual([0, 5]);
  });

  // The reply used to claim the result was sent before the post was tried.
  it('a sealed roll whose GM-channel post fails says so to the roller, and the log names the post', async () => {
    // The channel was fine when set; the bot lost its permission there since.
    app.ledger.settings.setGmChannel(GUILD, lockedChannelOf(GUILD));
    const posted = fake.channelMessages.length;
    const logged = app.logs.length;
    app.dice.push(5);
    const cb = await fake.send(slashCommand('rally', { disorder: 1, sealed: true, unit: 'Lost Post' }, { member: bob }));
    const text = cb.data.embeds[0].description as string;
    expect(text).toContain(`It could not be posted to <#${lockedChannelOf(GUILD)}>: the bot needs View Channel, Send Messages and Embed Links there.`);
    expect(text).toMatch(/A GM can read it with \/roll show id:\w+\./);
    expect(text).not.toContain('was sent');
    expect(fake.channelMessages.length).toBe(posted);
    const lines = app.logs.slice(logged).map((l) => JSON.parse(l));
    expect(lines.filter((l) => l.level === 'error')).toEqual([]);
    expect(lines.find((l) => l.level === 'warn')).toMatchObject({
      msg: expect.stringContaining('could not post to the GM channel'),
      channelId: lockedChannelOf(GUILD),
    });
    app.ledger.settings.setGmChannel(GUILD, gmRoomOf(GUILD));
  });

  // A user-installed copy of the app must not record rolls for a server that never added it.
  it('refuses an interaction authorised only by a personal install, recording nothing', async () => {
    const before = app.ledger.count(GUILD);
    const cb = await fake.send(slashCommand('rally', { disorder: 1, unit: 'Stowaway' }, { member: bob, installedBy: 'user' }));
    expect(cb.data.flags).toBe(64);
    expect(cb.data.content).toContain('has not been added to this server');
    expect(app.ledger.count(GUILD)).toBe(before);
  });

  // Discord gives @everyone the server's id; holding it must never make a GM.
  it('@everyone is never the GM role: /config refuses it, and a stored one makes no member a GM', async () => {
    const set = slashCommand('config', {}, { member: referee });
    set.data.options = [{ name: 'gm-role', type: 1, options: [{ name: 'role', type: 8, value: GUILD }] }] as never;
    expect((await fake.send(set)).data.content).toBe('⚠️ @everyone cannot be the GM role: every member would be a GM. Pick a role only referees hold.');
    // Even if it were stored (an older version allowed it), a member whose roles list it is no GM.
    app.ledger.settings.setGmRole(GUILD, GUILD);
    const cb = await fake.send(slashCommand('void', { id: 'nosuchroll', reason: 'test' }, { member: { ...bob, roles: [GUILD] } as never }));
    expect(cb.data.content).toContain('Only a GM');
    app.ledger.settings.setGmRole(GUILD, null);
  });

  it('a member holding the configured GM role is a GM', async () => {
    const gmRole = GM_ROLE_ID;
    const setRole = slashCommand('config', {}, { member: referee });
    setRole.data.options = [{ name: 'gm-role', type: 1, options: [{ name: 'role', type: 8, value: gmRole }] }] as never;
    await fake.send(setRole);
    const plain = await fake.send(slashCommand('export', {}, { member: bob }));
    expect(plain.type).toBe(5); // deferred, then refused
    await expect.poll(() => fake.webhookEdits.some((e) => String(e.body?.content ?? '').includes('Only a GM')), { timeout: 60_000 }).toBe(true);
    const withRole = slashCommand('void', { id: 'nosuchroll', reason: 'test' }, { member: { ...bob, roles: [gmRole] } as never });
    const cb = await fake.send(withRole);
    expect(cb.data.content).toContain('There is no roll "nosuchroll" in this server.');
  });

  it('/help answers ephemerally', async () => {
    const cb = await fake.send(slashCommand('help', {}, { member: bob }));
    expect(cb.data.flags).toBe(64);
    expect(cb.data.embeds[0].description).toContain('/rally');
  });

  it('keeps serving after a gateway reconnect (resume), and logs the drop and the resume', async () => {
    const before = app.logs.length;
    fake.requestReconnect();
    await expect.poll(() => fake.resumed, { timeout: 60_000 }).toBe(1);
    const msgs = () => app.logs.slice(before).map((l) => JSON.parse(l) as { msg: string; level: string });
    await expect.poll(() => msgs().some((l) => l.msg === 'gateway resumed' && l.level === 'info'), { timeout: 60_000 }).toBe(true);
    expect(
      msgs()
        .filter((l) => l.level === 'warn')
        .map((l) => l.msg),
    ).toContain('gateway reconnecting');
    app.dice.push(6);
    const cb = await fake.send(slashCommand('rally', { disorder: 1 }, { member: alice }));
    expect(cb.data.embeds[0].fields.find((f: any) => f.name === 'Result').value).toContain('**Rally**');
  });

  // User text shows as typed (no masked links, no fake bold), nothing pings, times are Discord timestamps.
  it('a hostile unit name is escaped in the result and in /history, and pings no one', async () => {
    const name = '[**Rally**](https://evil.example) @everyone';
    app.dice.push(6);
    const cb = await fake.send(slashCommand('rally', { disorder: 1, unit: name }, { member: alice }));
    expect(cb.data.embeds[0].title.split(' — ')[0]).toBe('Rally · \\[\\*\\*Rally\\*\\*](https://evil.example) @everyone');
    expect(cb.data.allowed_mentions).toEqual({ parse: [] });
    const history = await fake.send(slashCommand('history', {}, { member: alice }));
    const line = (history.data.embeds[0].description as string).split('\n')[0]!;
    expect(line).toContain('\\[\\*\\*Rally\\*\\*](https://evil.example)');
    expect(line).not.toContain('[**Rally**]');
    // Who rolled, by mention: a display name can be copied; allowed_mentions keeps it silent.
    expect(line).toMatch(/^<t:\d{10}:f> <@300000000000000001> \/rally · /);
    expect(history.data.allowed_mentions).toEqual({ parse: [] });
  });

  // Checked after every test of this file, whatever their order.
  afterAll(() => {
    for (const cb of fake.callbacks.filter((c) => c.type === 4 || c.type === 7))
      expect(cb.data.allowed_mentions, JSON.stringify(cb.data)).toEqual({ parse: [] });
    for (const m of fake.channelMessages) expect(m.body.allowed_mentions).toEqual({ parse: [] });
    for (const e of fake.webhookEdits.filter((w) => w.method !== 'DELETE')) expect(e.body.allowed_mentions, e.path).toEqual({ parse: [] });
    expect(fake.unknownRoutes).toEqual([]);
    expect(app.logs.length).toBeGreaterThan(0);
    expect(app.logs.join('\n')).not.toContain(TOKEN);
  });

  it('an upstream error that echoes the token is logged with the token redacted', async () => {
    // The post to a channel the bot may not post in fails with an error that quotes the credentials.
    app.ledger.settings.setGmChannel(GUILD, lockedChannelOf(GUILD));
    const logged = app.logs.length;
    app.dice.push(3);
    await fake.send(slashCommand('rally', { disorder: 1, sealed: true, unit: 'Echo' }, { member: bob }));
    const lines = app.logs.slice(logged).join('\n');
    expect(lines).toContain('request authorised as Bot [redacted]');
    expect(lines).not.toContain(TOKEN);
    app.ledger.settings.setGmChannel(GUILD, null);
  });
});

describe('npm run deploy-commands', () => {
  it('registers every command to the development guild through @discordjs/rest', async () => {
    // Asynchronous: the fake Discord answering it lives in this process.
    const r = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/discord/deploy.ts'], {
      cwd: path.resolve(__dirname, '../..'),
      encoding: 'utf8',
      timeout: 60_000,
      env: {
        ...process.env,
        DISCORD_TOKEN: TOKEN,
        DISCORD_APPLICATION_ID: APP_ID,
        DISCORD_GUILD_ID: GUILD,
        DISCORD_API_BASE: fake.apiBase,
        LOG_LEVEL: 'debug',
      },
    });
    expect(r.stderr).toContain(`Registered ${COMMANDS.length} commands to server`);
    expect(r.stderr + r.stdout).not.toContain(TOKEN);
    const saved = fake.registered.get(`guild:${GUILD}`)!;
    expect(saved.map((c) => c.name).sort()).toEqual(COMMANDS.map((c) => c.name).sort());
    const rally = saved.find((c) => c.name === 'rally');
    expect(rally.options[0]).toMatchObject({ name: 'disorder', type: 4, min_value: 1, max_value: 30 });
    const game = saved.find((c) => c.name === 'game');
    expect(game.options.map((o: any) => [o.type, o.name])).toEqual([
      [1, 'start'],
      [1, 'seed'],
      [1, 'turn'],
      [1, 'clock'],
      [1, 'join'],
      [1, 'san'],
      [1, 'booby_traps'],
      [1, 'status'],
      [1, 'end'],
    ]);
    expect(game.options[0].options.map((o: any) => [o.name, o.required])).toEqual([
      ['system', true],
      ['name', true],
      ['fair', false],
    ]);
    expect(rally.options.find((o: any) => o.name === 'unit')).toMatchObject({ autocomplete: true, max_length: 80 });
    expect(rally.contexts).toEqual([0]);
  });
});
