import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgLedger } from '../../src/ledger/postgres/pg-ledger.js';
import { freePort, freshDatabase, testPostgres } from '../helpers/postgres.js';
import { buttonPress, FakeDiscord, type Member, PERMISSION_MANAGE_GUILD, slashCommand } from './fake-discord.js';

// Four bot processes on one PostgreSQL ledger — two HTTP-mode processes and a
// gateway of two shard processes — take 5,000 interactions over 200 guilds from the fake Discord;
// one HTTP process is killed with SIGKILL midway and started again. Then every reply has its row,
// every chain verifies, a re-roll button pressed 50 times at once across the processes re-rolls
// once, and no guild's rows are in another's chain.
const ROOT = path.resolve(__dirname, '../..');
const APP = process.env.MORALE_APP_DIR ? path.resolve(process.env.MORALE_APP_DIR) : ROOT;
const TOKEN = 'MTEwMDAwMDAwMDAwMDAwMDAx.SCALE0.TheScaleOutTestTokenMustNeverBeLogged98';
const GUILDS = Array.from({ length: 200 }, (_, i) => String(900_000_000_000_000_000n + (BigInt(i) << 22n)));
const TOTAL = 5_000;
const server = await testPostgres();

let fake: FakeDiscord;
let url: string;
/** The processes' data directory, outside the checkout. */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'morale-officer-scale-'));
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await fake?.stop();
  server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

beforeAll(async () => {
  if (!server) return;
  fake = await new FakeDiscord(GUILDS, { shards: 2 }).start();
  url = await freshDatabase(server);
}, 120_000);

function startBot(env: Record<string, string>): { child: ChildProcess; log: () => string } {
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: APP,
    env: {
      ...process.env,
      DISCORD_TOKEN: TOKEN,
      DISCORD_API_BASE: fake.apiBase,
      DATABASE_URL: url,
      // The data directory (heartbeats, the receipt key) is the test's own, shared by its processes.
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      // 50 players share 200 guilds' traffic here: the per-player limit is not what is tested.
      RATE_LIMIT_BURST: '1000',
      RATE_LIMIT_PER_MINUTE: '100000',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr!.on('data', (d) => (log += d));
  children.push(child);
  return { child, log: () => log };
}

const waitFor = async (what: () => boolean, ms: number, logs: () => string = () => '') => {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error(`timed out; the logs:\n${logs().slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

const member = (i: number): Member => ({ id: String(300_000_000_000_000_000n + BigInt(i % 50)), username: `p${i % 50}` });
const referee: Member = { id: '300000000000000999', username: 'referee', permissions: PERMISSION_MANAGE_GUILD };
const rollIdOf = (data: any) => /roll (\w+)/.exec(data?.embeds?.[0]?.footer?.text ?? '')?.[1];

describe.skipIf(!server)('four processes on one PostgreSQL ledger', () => {
  it('5,000 interactions over 200 guilds, a SIGKILL and a restart: every reply recorded, every chain whole, one re-roll for 50 presses', async () => {
    const httpPorts = [await freePort(), await freePort()];
    const http = (i: number) => startBot({ INTERACTIONS_MODE: 'http', HTTP_PORT: String(httpPorts[i]), DISCORD_PUBLIC_KEY: fake.publicKeyHex, SHARDS: '' });
    const gateway = startBot({ SHARDS: 'auto', SHARD_SPAWN_DELAY_MS: '0' });
    let httpBots = [http(0), http(1)];
    await waitFor(() => gateway.log().includes('all shards connected'), 60_000, gateway.log);
    await waitFor(
      () => httpBots.every((b) => b.log().includes('serving interactions over HTTP')),
      30_000,
      () => httpBots.map((b) => b.log()).join('\n'),
    );

    // guild → the roll ids of the replies it got
    const answered = new Map<string, string[]>();
    let unanswered = 0;
    // A reply deferred under load (its first answer a "thinking…") arrives later as a webhook edit.
    const deferred: { guild: string; token: string }[] = [];
    const note = (guild: string, type: number, data: any, token: string) => {
      if (type === 5) return void deferred.push({ guild, token });
      const id = rollIdOf(data);
      if (!id) throw new Error(`a reply without a roll: ${JSON.stringify(data).slice(0, 200)}`);
      answered.set(guild, [...(answered.get(guild) ?? []), id]);
    };
    const one = async (i: number) => {
      const guild = GUILDS[i % GUILDS.length]!;
      const interaction = slashCommand('rally', { disorder: 1 + (i % 3), unit: `Unit ${i % 7}` }, { member: member(i), guildId: guild });
      if (i % 2 === 0) {
        const cb = await fake.send(interaction, 10_000).catch(() => undefined);
        if (cb) note(guild, cb.type, cb.data, interaction.token);
        else unanswered++;
        return;
      }
      const port = httpPorts[(i >> 1) % 2]!;
      const res = await fake.postInteraction(`http://127.0.0.1:${port}/interactions`, interaction).catch(() => undefined);
      if (res?.status === 200 && (res.body.type === 4 || res.body.type === 5)) note(guild, res.body.type, res.body.data, interaction.token);
      else unanswered++;
    };
    // 5,000 interactions, 40 at a time; at 2,000 one HTTP process is killed, and started again at 3,000.
    let next = 0;
    let killedAt = -1;
    const worker = async () => {
      while (next < TOTAL) {
        const i = next++;
        if (i === 2_000) {
          httpBots[1]!.child.kill('SIGKILL');
          killedAt = i;
        }
        if (i === 3_000) {
          httpBots = [httpBots[0]!, http(1)];
          await waitFor(() => httpBots[1]!.log().includes('serving interactions over HTTP'), 30_000);
        }
        await one(i);
      }
    };
    const started = Date.now();
    await Promise.all(Array.from({ length: 24 }, worker));
    for (const d of deferred) {
      const edit = () => fake.webhookEdits.find((e) => e.path.includes(d.token.split('/')[0]!) && rollIdOf(e.body));
      await waitFor(() => !!edit(), 10_000);
      note(d.guild, 4, edit()!.body, d.token);
    }
    console.info(
      `scale-out: ${TOTAL} interactions in ${((Date.now() - started) / 1000).toFixed(1)} s; ${unanswered} unanswered (sent to the killed process); ${deferred.length} deferred`,
    );
    expect(killedAt).toBe(2_000);
    const replies = [...answered.values()].reduce((a, ids) => a + ids.length, 0);
    // Only what reached the killed process while it was down went unanswered.
    expect(replies + unanswered).toBe(TOTAL);
    expect(replies).toBeGreaterThan(TOTAL * 0.75);

    // 50 presses of one re-roll button at once, spread over the HTTP processes and the gateway.
    const guild = GUILDS[7]!;
    const first = await fake.postInteraction(
      `http://127.0.0.1:${httpPorts[0]}/interactions`,
      slashCommand('rally', { disorder: 2, commander_near: true }, { member: member(1), guildId: guild }),
    );
    const button = first.body.data.components[0]?.components[0]?.custom_id;
    // The first roll may pass, leaving nothing to re-roll: then roll until the button is offered.
    let offered = button as string | undefined;
    let tries = 0;
    while (!offered && tries++ < 30) {
      const again = await fake.postInteraction(
        `http://127.0.0.1:${httpPorts[0]}/interactions`,
        slashCommand('rally', { disorder: 3, commander_near: true }, { member: member(1), guildId: guild }),
      );
      offered = again.body.data.components[0]?.components[0]?.custom_id;
    }
    expect(offered).toBeDefined();
    const message = { id: '500000000000000077' };
    const presses = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const press = buttonPress(offered!, message, { member: referee, guildId: guild });
        if (i % 3 === 2) return (await fake.send(press, 10_000)).type;
        return (await fake.postInteraction(`http://127.0.0.1:${httpPorts[i % 2]}/interactions`, press)).body.type;
      }),
    );
    expect(presses.filter((t) => t === 7)).toHaveLength(1);

    // The ledger: every reply's row in its own guild's chain, every chain whole.
    const ledger = await PgLedger.connect(url);
    const rows = (await ledger.pool.query('SELECT id, guild_id, kind, parent_id FROM rolls')).rows as {
      id: string;
      guild_id: string;
      kind: string;
      parent_id: string | null;
    }[];
    const guildOf = new Map(rows.map((r) => [r.id, r.guild_id]));
    for (const [g, ids] of answered) for (const id of ids) expect(guildOf.get(id), `roll ${id} of guild ${g}`).toBe(g);
    const rollId = offered!.split(':')[2]!;
    expect(rows.filter((r) => r.parent_id === rollId && r.kind === 'reroll')).toHaveLength(1);
    const guilds = [...new Set(rows.map((r) => r.guild_id))];
    expect(guilds.length).toBe(GUILDS.length);
    for (const g of guilds) expect((await ledger.verify(g)).ok, g).toBe(true);
    // Four processes (and a restart) started on one DATA_DIR: one receipt key among them.
    const keys = await ledger.pool.query<{ fingerprint: string }>('SELECT fingerprint FROM signing_keys');
    expect(keys.rows).toHaveLength(1);
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'signing-key.json'), 'utf8')).keys[0].fingerprint).toBe(keys.rows[0]!.fingerprint);
    await ledger.close();

    // Every process still stops cleanly on SIGTERM.
    const exits = [gateway.child, ...httpBots.map((b) => b.child)].map((c) => new Promise((r) => c.once('exit', (code) => r(code))));
    for (const c of [gateway.child, ...httpBots.map((b) => b.child)]) c.kill('SIGTERM');
    expect(await Promise.all(exits)).toEqual([0, 0, 0]);
    // Nothing logged the token.
    for (const b of [gateway, ...httpBots]) expect(b.log()).not.toContain(TOKEN);
  }, 240_000);
});
