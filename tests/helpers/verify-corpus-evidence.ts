import { deflateRawSync } from 'node:zlib';
import { createRouter } from '../../src/app.js';
import { snowflakeAt } from '../../src/beacon/chain.js';
import type { Actor, Reply } from '../../src/core/command.js';
import type { RequestEvidence } from '../../src/core/evidence.js';
import type { Router } from '../../src/core/router.js';
import { canonicalJson } from '../../src/ledger/chain.js';
import { KEEP_EVIDENCE_SQL } from '../../src/ledger/common-sql.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { backfillTallies } from '../../src/ledger/migrate.js';
import { createLogger } from '../../src/log.js';
import { evidenceDigest } from '../../src/verify/evidence.js';
import { expectMessage, gm } from './app.js';
import { tmpDb } from './tmp.js';
import { fakeDiscordKey, type FakeDiscordKey } from './beacon-game.js';
import { keepSalts } from './verify-in-bot.js';
import { beaconExport, evidenceOfRow, lf, rehash, rowsOf, tamperTournament, type CorpusEntry } from './verify-corpus.js';

/**
 * A hostile host forging a tournament game's evidence from real Discord signatures: requests
 * Discord did sign, made to stand for rows they never asked for. Each is an export every door of
 * the verifier must read alike, with the verdict written here by hand.
 */

type R = Record<string, any>;

/** An interaction's body as Discord sends it: who, where, and what (a command's `data`, or a press's). */
function bodyOf(type: number, id: string, actor: Actor, data: R, extra: R = {}): string {
  return JSON.stringify({
    id,
    type,
    token: `token-of-${id}`,
    guild_id: actor.guildId,
    channel_id: actor.channelId,
    member: { user: { id: actor.userId, username: actor.userName } },
    data,
    ...extra,
  });
}

/** A command's options as Discord nests them (under a subcommand when it has one); `focused`: the one being typed. */
function optionsData(name: string, options: R, subcommand?: string, focused?: string): R {
  const list = Object.entries(options).map(([k, value]) => ({
    name: k,
    type: typeof value === 'number' ? 4 : typeof value === 'boolean' ? 5 : 3,
    value,
    ...(k === focused ? { focused: true } : {}),
  }));
  return { name, type: 1, options: subcommand ? [{ name: subcommand, type: 1, options: list }] : list };
}

/** Discord's autocomplete request (one keystroke, type 4) for these options, signed with the application key. */
export function signedAutocomplete(key: FakeDiscordKey, id: string, actor: Actor, name: string, options: R, focused: string, atMs: number): RequestEvidence {
  return key.signBody(bodyOf(4, id, actor, optionsData(name, options, undefined, focused)), atMs);
}

/** A press of a button (type 3) as Discord signs it, with its copy of the message the button sits on. */
export function signedPress(key: FakeDiscordKey, id: string, actor: Actor, customId: string, embeds: unknown[], atMs: number): RequestEvidence {
  return key.signBody(bodyOf(3, id, actor, { custom_id: customId, component_type: 2 }, { message: { id: `m${id}`, type: 0, embeds } }), atMs);
}

/**
 * The router as an HTTP bot drives it: every command and press a request Discord signed, with an
 * interaction id of the clock's time. `raw` hands the router a request with evidence of the
 * caller's choosing: what a host running modified code can do with signatures he holds.
 */
export function signedClient(router: Router, key: FakeDiscordKey, now: () => number = Date.now) {
  let n = 0;
  const nextId = () => snowflakeAt(now(), ++n);
  return {
    nextId,
    ask(actor: Actor, name: string, options: R, subcommand?: string): Promise<Reply> {
      const req = { name, options, actor, interactionId: nextId(), ...(subcommand ? { subcommand } : {}) };
      return router.handle({ type: 'command', ...req, evidence: key.sign(req, now()) });
    },
    press(actor: Actor, customId: string, embeds: unknown[] = []): Promise<Reply> {
      const interactionId = nextId();
      return router.handle({ type: 'button', customId, actor, interactionId, evidence: signedPress(key, interactionId, actor, customId, embeds, now()) });
    },
    raw(actor: Actor, name: string, options: R, interactionId: string, evidence: RequestEvidence): Promise<Reply> {
      return router.handle({ type: 'command', name, options, actor, interactionId, evidence });
    },
  };
}

/** An evidence line's bytes replaced by others Discord signed, the row's digest made to match them. */
function swapRequest(ev: R[], roll: R, signed: RequestEvidence): void {
  Object.assign(evidenceOfRow(ev, roll), { timestamp: signed.timestamp, signature: signed.signature, body: signed.body });
  roll.input.evidence.sha256 = evidenceDigest(signed.timestamp, Buffer.from(signed.body, 'base64'));
}

/** The rows of a one-guild export numbered again in file order, after a forger put one among them. */
export function renumber(all: R[]): R[] {
  let n = 0;
  for (const r of all) if (!('evidence' in r) && !('signing_key' in r)) Object.assign(r, { seq: ++n, guild_seq: n });
  return all;
}

/** The roll's actor, as its signed request names it. */
const actorOf = (roll: R): Actor => ({ guildId: roll.guild_id, channelId: roll.channel_id, userId: roll.user_id, userName: roll.user_name, isGm: false });

/** A row appended at the end of its guild's chain (made whole by rehash), `minutes` after the last row. */
function appended(all: R[], row: R, minutes: number): R[] {
  const rows = all.filter((r) => !('evidence' in r) && !('signing_key' in r));
  const last = rows.at(-1)!;
  const at = new Date(Date.parse(last.created_at) + minutes * 60_000).toISOString();
  const next = { ...last, ...row, seq: last.seq + 1, guild_seq: last.guild_seq + 1, created_at: at };
  all.splice(all.indexOf(last) + 1, 0, next);
  return all;
}

/** A note appended in the game's channel after its end, 20 minutes on: the export's time moves with it. */
const lateNote = (start: R): R => ({
  id: 'latenote01',
  game_id: null,
  turn: null,
  phase: null,
  game_seq: null,
  user_id: 'gm',
  user_name: 'Game Master',
  command: 'config',
  system: null,
  kind: 'config',
  unit: null,
  input: { note: 'tournament closed' },
  dice: [],
  outcome: { system: start.system, steps: [], result: 'noted', tone: 'neutral' },
  result: 'noted',
  parent_id: null,
  once_key: null,
});

/** The crafted exports of the evidence checks: each attack of a hostile host holding real signatures. */
export async function evidenceCorpus(): Promise<CorpusEntry[]> {
  const key = fakeDiscordKey();
  const tournament = await beaconExport('test', 3, key);
  const utf8 = (t: string) => Buffer.from(t, 'utf8');
  const atOf = (r: R) => Date.parse(r.created_at);
  const rolls = rowsOf(tournament).filter((r) => r.kind === 'roll');
  return [
    {
      name: 'a tournament game with a roll whose request is an autocomplete keystroke Discord signed',
      bytes: utf8(
        tamperTournament(tournament, (_all, roll, _s, ev) =>
          swapRequest(
            ev,
            roll,
            signedAutocomplete(key, roll.input.evidence.interaction, actorOf(roll), 'rally', { disorder: 1, unit: 'Unit 0' }, 'unit', atOf(roll)),
          ),
        ),
      ),
      ok: false,
      says: `row ${rolls[0]!.id}: Discord's signed request is an autocomplete request (type 4), not a request for this row`,
    },
    {
      name: 'a tournament game with a roll whose request is a press of another roll’s Acknowledge',
      bytes: utf8(
        tamperTournament(tournament, (_all, roll, _s, ev) =>
          swapRequest(ev, roll, signedPress(key, roll.input.evidence.interaction, actorOf(roll), `v1:ack:${rolls[1]!.id}`, [], atOf(roll))),
        ),
      ),
      ok: false,
      says: `row ${rolls[0]!.id}: Discord's signed request is a press of "v1:ack:${rolls[1]!.id}", not of a button that writes this row`,
    },
    {
      name: 'a tournament game with an option added to a roll that its request never carried',
      bytes: utf8(tamperTournament(tournament, (_all, roll) => (roll.input.band = true))),
      ok: false,
      says: `row ${rolls[0]!.id}: the row holds option band true, which Discord's signed request does not carry (its declared default is false)`,
    },
    {
      name: 'a tournament game with an option added to a roll and committed as the bot’s own filling',
      bytes: utf8(
        tamperTournament(tournament, (_all, roll) => {
          roll.input.quality = 'elite';
          roll.input.evidence.unasked = ['quality'];
        }),
      ),
      ok: true,
      says: `options filled by the bot, not asked (its word: a roster's value or a pack's default): row ${rolls[0]!.id} quality "elite"`,
    },
    {
      name: 'a tournament game with a ruling that claims a roll’s signed request',
      bytes: utf8(
        tamperTournament(tournament, (all, roll) => {
          all.splice(all.indexOf(roll) + 1, 0, { ...structuredClone(roll), id: 'secondrow1', kind: 'check', game_seq: null });
          renumber(all);
        }),
      ),
      ok: false,
      says: `row secondrow1 claims the Discord-signed request that already backs row ${rolls[0]!.id} (interaction ${rolls[0]!.input.evidence.interaction}): one request backs one row`,
    },
    {
      name: 'a tournament game with a roll’s request marked pending in an export taken 20 minutes after it',
      bytes: utf8(
        tamperTournament(tournament, (all, roll, start, ev) => {
          Object.assign(evidenceOfRow(ev, roll), { pending: true, timestamp: undefined, signature: undefined, body: undefined });
          appended(all, lateNote(start), 20);
        }),
      ),
      ok: false,
      says: `roll ${rolls[0]!.id} of a tournament game has no signed request: the export marks it pending (younger than 15 minutes), but the row or the interaction it names is not younger than 15 minutes at the export's time`,
    },
    {
      name: 'a tournament game with an Acknowledge appended with no signed press',
      bytes: utf8(
        tamperTournament(tournament, (all, roll) => {
          const ack = { ...structuredClone(roll), id: 'forgedack1', kind: 'annotation', command: 'acknowledge', user_id: 'p1', user_name: 'Player 1' };
          Object.assign(ack, { game_seq: null, dice: [], parent_id: roll.id, once_key: `ack:${roll.id}:p1`, input: { note: 'acknowledged as shown' } });
          appended(all, ack, 0);
        }),
      ),
      ok: false,
      says: `acknowledgement forgedack1 of roll ${rolls[0]!.id} carries no Discord-signed press: it was not pressed through Discord`,
    },
    {
      name: 'a tournament game with a roll dated two days ahead, so that it is the newest row, and its request marked pending',
      bytes: utf8(
        tamperTournament(tournament, (_all, roll, _s, ev) => {
          Object.assign(evidenceOfRow(ev, roll), { pending: true, timestamp: undefined, signature: undefined, body: undefined });
          roll.created_at = new Date(atOf(roll) + 2 * 86_400_000).toISOString();
        }),
      ),
      ok: false,
      says: `roll ${rolls[0]!.id} of a tournament game has no signed request: the export marks it pending (younger than 15 minutes), but the row or the interaction it names is not younger than 15 minutes at the export's time`,
    },
    {
      name: 'a club game with an Acknowledge naming a press the export does not hold',
      bytes: utf8(
        tamperTournament(tournament, (all, roll, start) => {
          delete start.input.fair;
          const ack: R = { ...structuredClone(roll), id: 'forgedack2', kind: 'annotation', command: 'acknowledge', user_id: 'p1', user_name: 'Player 1' };
          Object.assign(ack, { game_seq: null, dice: [], parent_id: roll.id, once_key: `ack:${roll.id}:p1` });
          ack.input = { note: 'acknowledged as shown', evidence: { interaction: '1178304166808780999', sha256: 'a'.repeat(64) } };
          appended(all, ack, 0);
        }),
      ),
      ok: false,
      says: 'the Discord-signed request of acknowledgement forgedack2 is not in this export',
    },
    {
      name: 'a tournament game with a void of a roll appended with no signed request',
      bytes: utf8(
        tamperTournament(tournament, (all, roll) => {
          const voided: R = { ...structuredClone(roll), id: 'forgedvoid', kind: 'void', command: 'void', user_id: 'gm', user_name: 'Game Master' };
          Object.assign(voided, { game_seq: null, dice: [], parent_id: roll.id, once_key: null, input: { id: roll.id, reason: 'misclick' } });
          appended(all, voided, 0);
        }),
      ),
      ok: false,
      says: 'void forgedvoid of a tournament game carries no Discord-signed request: it was not asked through Discord',
    },
    {
      name: 'a tournament game with a roll whose signed unit name is kept in another case',
      bytes: utf8(tamperTournament(tournament, (_all, roll) => (roll.input.unit = String(roll.input.unit).toLowerCase()))),
      ok: false,
      says: `row ${rolls[0]!.id}: Discord's signed request names option unit "Unit 0", the row "unit 0"`,
    },
    {
      name: 'a tournament game with a roll whose signed option is kept as null',
      bytes: utf8(tamperTournament(tournament, (_all, roll) => (roll.input.disorder = null))),
      ok: false,
      says: `row ${rolls[0]!.id}: Discord's signed request names option disorder 1, the row null`,
    },
    {
      name: 'a tournament beacon game whose first row is made to say its dice were scripted',
      bytes: utf8(
        tamperTournament(tournament, (_all, _roll, start) => {
          start.input.dice = 'scripted';
        }),
      ),
      ok: false,
      says: 'its first row says its dice were typed in by hand (scripted), but its first row commits a beacon: a real game',
    },
  ];
}

/**
 * An export loaded into a fresh ledger as an operator's database would hold it (its rows, and the
 * signed requests kept beside them), and the bot's /verify run there: its title and text.
 */
export async function verifyInBotWithEvidence(text: string): Promise<string> {
  const lines = rowsOf(text);
  const rows = lines.filter((r) => !('evidence' in r) && !('signing_key' in r));
  const ledger = Ledger.open(tmpDb());
  try {
    const cols = (ledger.db.prepare('PRAGMA table_info(rolls)').all() as { name: string }[]).map((c) => c.name).filter((c) => c in rows[0]!);
    const insert = ledger.db.prepare(`INSERT INTO rolls (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`);
    for (const r of rows) insert.run(...cols.map((c) => (['input', 'dice', 'outcome'].includes(c) ? canonicalJson(r[c]) : r[c])));
    keepSalts(ledger, rows);
    const keep = ledger.db.prepare(KEEP_EVIDENCE_SQL);
    for (const { evidence: e } of lines.filter((r) => 'evidence' in r && !r.evidence.pending))
      keep.run(e.interaction, rows[0]!.guild_id, e.timestamp, e.signature, deflateRawSync(Buffer.from(e.body, 'base64')), rows[0]!.created_at);
    backfillTallies(ledger.db);
    const router = createRouter({ ledger, log: createLogger({ level: 'silent' }) });
    const reply = expectMessage(await router.handle({ type: 'command', name: 'verify', options: {}, actor: { ...gm, guildId: rows[0]!.guild_id } }));
    return `${reply.embed.title}\n${reply.embed.description}`;
  } finally {
    ledger.close();
  }
}

/** The export's rows made whole again after a change (for tests that tamper outside the corpus). */
export const rewritten = (text: string, change: (rows: R[]) => void): string => {
  const all = rowsOf(text);
  change(all);
  return lf(rehash(all));
};
