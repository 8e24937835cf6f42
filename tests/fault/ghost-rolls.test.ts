import { afterEach, describe, expect, it } from 'vitest';
import { deliverUnshownRolls, type ChannelPost, type LateMessage } from '../../src/core/late-delivery.js';
import { sqliteStore } from '../../src/ledger/store.js';
import { silentLogger } from '../../src/log.js';
import { alice, command, expectMessage, gm, testApp, type TestApp } from '../helpers/app.js';

// No ghost rolls: a roll is committed before its reply, so the router's answer that no
// transport delivered is exactly what a process killed between the two leaves behind.

let app: TestApp | undefined;
afterEach(() => {
  app?.ledger.close();
  app = undefined;
});

/** A channel that keeps what is posted to it, or refuses every post. */
function channel(refuse?: string) {
  const posts: { guildId: string; channelId: string; message: LateMessage }[] = [];
  const post: ChannelPost = async (guildId, channelId, message) => {
    if (refuse) throw new Error(refuse);
    posts.push({ guildId, channelId, message });
    return `late-${posts.length}`;
  };
  return { posts, post };
}

const deliver = (a: TestApp, post: ChannelPost, inFlightMs = 0) =>
  deliverUnshownRolls({ store: sqliteStore(a.ledger), router: a.router, post, log: silentLogger }, Date.now() + 1, inFlightMs);

const historyLines = async (a: TestApp) => expectMessage(await command(a, alice, 'history', {})).embed.description!.split('\n');

describe('a roll committed but never shown', () => {
  it('is posted to its channel as its command shows it, naming its roller, once; /history links it', async () => {
    app = testApp();
    app.dice.push(4);
    const id = expectMessage(await command(app, alice, 'rally', { disorder: 2, unit: '1st Foot' })).record!.roll_id;
    const { posts, post } = channel();
    expect(await deliver(app, post)).toEqual({ posted: 1, undelivered: 0 });
    expect(posts).toHaveLength(1);
    const [p] = posts;
    expect([p!.guildId, p!.channelId, p!.message.mention]).toEqual(['g1', 'c1', 'alice']);
    expect(p!.message.content).toMatch(
      /^<@alice>: your \/rally of <t:\d{10}:f> was recorded, but the bot stopped before its reply reached this channel\. Here it is\.$/,
    );
    expect(p!.message.embed.title).toMatch(/^Rally · 1st Foot — /);
    expect(p!.message.embed.footer?.text).toMatch(new RegExp(`^roll ${id} · hash [0-9a-f]{8}$`));
    // Claimed and linked: a second look posts nothing, and /history links the late message.
    expect(await deliver(app, post)).toEqual({ posted: 0, undelivered: 0 });
    expect(posts).toHaveLength(1);
    expect((await historyLines(app))[0]).not.toContain('never shown');
  });

  it('a sealed one stays sealed: the post names it and its roller, nothing of its result', async () => {
    app = testApp();
    app.dice.push(6);
    const reply = expectMessage(await command(app, alice, 'rally', { disorder: 2, unit: 'Hidden', sealed: true }));
    const { posts, post } = channel();
    await deliver(app, post);
    const id = reply.record!.roll_id;
    expect(posts[0]!.message.embed).toEqual({
      title: `Sealed roll ${id}`,
      description: 'A sealed roll by <@alice>: its result shows once it is revealed (/reveal).',
    });
    expect(posts[0]!.message.buttons).toEqual([]);
    const result = app.ledger.history.page({ guildId: 'g1' }, 1, 0).rows[0]!;
    expect(result.dice).toEqual([]);
    expect(JSON.stringify(posts)).not.toMatch(/rally\*\*|retreat|rout/i);
  });

  it('one the bot cannot post is marked in /history with why, and not tried again', async () => {
    app = testApp();
    app.dice.push(4);
    await command(app, alice, 'rally', { disorder: 2, unit: '1st Foot' });
    const locked = channel('Missing Permissions');
    expect(await deliver(app, locked.post)).toEqual({ posted: 0, undelivered: 1 });
    expect((await historyLines(app))[0]).toContain(' · ⚠️ never shown in its channel (not delivered: Missing Permissions) · ');
    const open = channel();
    expect(await deliver(app, open.post)).toEqual({ posted: 0, undelivered: 0 });
  });

  it('leaves alone a roll younger than the in-flight window, a roll a message showed, and a ruling', async () => {
    app = testApp();
    app.dice.push(4, 5);
    await command(app, alice, 'rally', { disorder: 2, unit: 'Young' });
    const { posts, post } = channel();
    expect(await deliver(app, post, 60_000)).toEqual({ posted: 0, undelivered: 0 });
    const shown = expectMessage(await command(app, alice, 'rally', { disorder: 2, unit: 'Shown' })).record!.roll_id;
    app.ledger.history.linkMessage(shown, 'm1');
    await command(app, gm, 'disorder', { unit: 'Young', strength: 4, lost: 1 });
    await deliver(app, post);
    expect(posts.map((p) => p.message.embed.title!.split(' — ')[0])).toEqual(['Rally · Young']);
  });

  it('two processes looking at once post each roll once', async () => {
    app = testApp();
    app.dice.push(1, 2, 3);
    for (const unit of ['A', 'B', 'C']) await command(app, alice, 'rally', { disorder: 2, unit });
    const { posts, post } = channel();
    const [one, two] = await Promise.all([deliver(app, post), deliver(app, post)]);
    expect(one.posted + two.posted).toBe(3);
    expect(posts.map((p) => p.message.embed.title!.split(' — ')[0]).sort()).toEqual(['Rally · A', 'Rally · B', 'Rally · C']);
  });
});
