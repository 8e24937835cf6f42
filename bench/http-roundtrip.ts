import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { deflateRawSync } from 'node:zlib';
import { createRouter } from '../src/app.js';
import { MessageLinks } from '../src/core/message-links.js';
import { createHttpBot } from '../src/discord/http-bot.js';
import { publicKeyFromHex, signatureProblem } from '../src/discord/signature.js';
import { Ledger } from '../src/ledger/ledger.js';
import { silentLogger } from '../src/log.js';
import { FakeDiscord, slashCommand } from '../tests/e2e/fake-discord.js';
import { fmt, type Line, ratioLine, repeated } from './repeat.js';
import { AS_THE_BOT, actor, committingOneRoll } from './roll-work.js';

const TOKEN = 'MTEwMDAwMDAwMDAwMDAwMDAx.BENCH0.HttpRoundTripBenchTokenNotARealOne000000';

/** One way of answering signed interactions on loopback: its URL, and how to wait for its work in hand and stop it. */
type Door = { url: string; idle(): Promise<void>; stop(): Promise<void> };

/** The bot in HTTP mode: the router, the ledger, the links to /history fetched when quiet. */
async function botDoor(fake: FakeDiscord, file: string): Promise<Door> {
  const ledger = Ledger.open(file, AS_THE_BOT);
  const bot = createHttpBot({
    token: TOKEN,
    apiBase: fake.apiBase,
    router: createRouter({ ledger, log: silentLogger }),
    links: new MessageLinks(ledger, silentLogger),
    log: silentLogger,
    publicKey: publicKeyFromHex(fake.publicKeyHex),
    port: 0,
    host: '127.0.0.1',
  });
  await bot.start();
  return {
    url: `http://127.0.0.1:${bot.port()}/interactions`,
    idle: () => bot.idle(),
    async stop() {
      await bot.stop();
      ledger.close();
    },
  };
}

/**
 * The same work with nothing of ours around it: the body read, its signature verified, parsed and
 * compressed (the bot keeps Discord's signed bytes beside a roll), a row of a roll's shape
 * committed, a fixed answer written into the response, and then the message it made fetched (as
 * the bot fetches it for /history's links).
 */
async function bareDoor(fake: FakeDiscord, file: string): Promise<Door> {
  const key = publicKeyFromHex(fake.publicKeyHex);
  const commit = await committingOneRoll(file);
  const answer = JSON.stringify({ type: 4, data: { embeds: [{ title: 'Rally', description: 'fixed', color: 0x2e9d57 }], allowed_mentions: { parse: [] } } });
  const fetches = new Set<Promise<unknown>>();
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const h = (name: string) => req.headers[name] as string | undefined;
    if (signatureProblem(key, h('x-signature-ed25519'), h('x-signature-timestamp'), body)) return void res.writeHead(401).end();
    const i = JSON.parse(body.toString('utf8')) as { application_id: string; token: string };
    deflateRawSync(body);
    commit();
    res.writeHead(200, { 'content-type': 'application/json' }).end(answer);
    const fetched = fetch(`${fake.apiBase}/v10/webhooks/${i.application_id}/${encodeURIComponent(i.token)}/messages/@original`).then((r) => r.json());
    fetches.add(fetched);
    void fetched.finally(() => fetches.delete(fetched));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/interactions`,
    idle: () => Promise.allSettled(fetches).then(() => undefined),
    async stop() {
      await new Promise((r) => server.close(r));
      commit.close();
    },
  };
}

/** `n` signed /rally one after another through a door: the mean time of one (ms) and the process's CPU a roll (µs). */
async function timeDoor(kind: 'bot' | 'bare', n: number, file: string): Promise<{ ms: number; cpuUs: number }> {
  const fake = await new FakeDiscord().start();
  const door = kind === 'bot' ? await botDoor(fake, file) : await bareDoor(fake, file);
  try {
    const send = async () => {
      const r = await fake.postInteraction(door.url, slashCommand('rally', { disorder: 2 }, { member: { id: actor.userId, username: 'bench' } }));
      if (r.status !== 200 || r.body?.type !== 4) throw new Error(`the ${kind} door answered ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
    };
    for (let i = 0; i < 20; i++) await send();
    await door.idle();
    const cpu = process.cpuUsage();
    const t = performance.now();
    for (let i = 0; i < n; i++) await send();
    // The links fetched once the answers are out are part of what a roll costs.
    await door.idle();
    const ms = (performance.now() - t) / n;
    const used = process.cpuUsage(cpu);
    return { ms, cpuUs: (used.user + used.system) / n };
  } finally {
    await door.stop();
    await fake.stop();
  }
}

/** A signed slash command answered over HTTP by the bot, against a bare handler doing the same work. */
export async function httpRoundTripLine(n: number, dir: string): Promise<Line> {
  const { med, spread } = await repeated(async (rep) => {
    const ours = await timeDoor('bot', n, path.join(dir, `http-roundtrip-${rep}.db`));
    const base = await timeDoor('bare', n, path.join(dir, `http-roundtrip-bare-${rep}.db`));
    return { ours: ours.ms, base: base.ms, oursCpu: ours.cpuUs, baseCpu: base.cpuUs, ratio: ours.ms / base.ms };
  });
  return ratioLine(
    'HTTP interaction round trip (signed POST ↔ answer in the response)',
    med.ratio,
    spread,
    {
      ours: `${fmt(med.ours, 3)} ms`,
      baseline: `${fmt(med.base, 3)} ms: a bare handler verifying, parsing, compressing the signed body and committing a row of a roll's shape before it answers, then fetching its message`,
      detail: `CPU a roll (this process, the fake Discord included): ${fmt(med.oursCpu)} µs against ${fmt(med.baseCpu)} µs bare`,
    },
    ['≤', 1.5],
  );
}

// Run alone (npx tsx bench/http-roundtrip.ts [--quick]) while working on the HTTP door.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'morale-officer-bench-http-'));
  try {
    const l = await httpRoundTripLine(process.argv.includes('--quick') ? 100 : 1_000, dir);
    process.stdout.write(`${JSON.stringify(l, null, 2)}\n`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
