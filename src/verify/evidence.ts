import { createHash, createPublicKey, verify } from 'node:crypto';
import { snowflakeTime } from '../beacon/chain.js';
import { erasedProblem, partialErasure, type Erased } from './evidence-erased.js';

export { erasedEvidence, type Erased } from './evidence-erased.js';
import type { ChainedRow } from '../ledger/chain.js';
import type { SignedFacts } from './signed-facts.js';
import { asksFor, DECISIVE_KINDS, notARequest, type Asked } from './evidence-asks.js';

/**
 * Discord's signature as evidence. In HTTP interactions mode Discord signs every request
 * it sends (Ed25519 over the timestamp header followed by the raw body). The bot keeps those exact
 * bytes beside the chain, and each row an interaction writes commits to SHA-256(timestamp ‖ body)
 * and the interaction's id. Anyone holding the application's public key (the game's first row
 * commits it; Discord serves it as `verify_key`) can then check that this user asked for this
 * command, with these options, in this guild and channel, at this time: the operator cannot forge
 * that. The checks here serve every verifier: /verify, `npm run verify` and verify.html.
 */

/** What Discord signed, as kept: the timestamp header, the signature (hex), the raw body (base64). */
export type SignedRequest = { timestamp: string; signature: string; body: string };
/**
 * What a row commits to of the request behind it; `unasked`: its options the request does not
 * carry and that are not their command's declared defaults, which the bot filled (evidence-asks.ts).
 */
export type RowEvidence = { interaction: string; sha256: string; unasked?: string[] };
/**
 * A request an export left out while its body's reply token still worked (younger than 15
 * minutes); `asOf`: the export's own time in ms, the latest time its rows commit.
 */
export type Pending = { pending: true; asOf: number | undefined };
/** A kept request, one an export left out as pending, or one erased with a person's data (evidence-erased.ts). */
export type EvidenceLookup = (interaction: string) => SignedRequest | Pending | Erased | undefined;

/** A request's body holds a reply token valid for 15 minutes: exports leave out evidence younger than this. */
export const EVIDENCE_EMBARGO_MS = 15 * 60 * 1000;
/** How far a row's time may be from its interaction's (its snowflake): a beacon roll waits up to ten minutes. */
const ROW_WITHIN_MS = 15 * 60 * 1000;

const HEX64 = /^[0-9a-f]{64}$/;

export const bytesOfBase64 = (b64: string): Uint8Array => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));

/** SHA-256(timestamp ‖ body), hex: what a row commits to. */
export function evidenceDigest(timestamp: string, body: Uint8Array): string {
  return createHash('sha256').update(timestamp).update(body).digest('hex');
}

/** Whether Discord's signature holds over timestamp ‖ body under this application key (64 hex). */
export function signedUnder(keyHex: string, req: SignedRequest, body: Uint8Array): boolean {
  if (!HEX64.test(keyHex) || !/^[0-9a-f]{128}$/i.test(req.signature)) return false;
  try {
    const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: hexToBase64url(keyHex) }, format: 'jwk' });
    const message = new Uint8Array(req.timestamp.length + body.length);
    message.set(new TextEncoder().encode(req.timestamp));
    message.set(body, req.timestamp.length);
    return verify(null, message, key, hexBytes(req.signature));
  } catch {
    return false;
  }
}

const hexBytes = (hex: string) => Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16));
const hexToBase64url = (hex: string) =>
  btoa(String.fromCharCode(...hexBytes(hex)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

export type { SignedFacts };

type RawOption = { name?: unknown; type?: unknown; value?: unknown; options?: RawOption[] };

/** Options flattened past a subcommand (and a group), by name; `path` gets the group and subcommand names. */
function flatOptions(list: RawOption[] | undefined, path: string[], out: Record<string, unknown> = {}): Record<string, unknown> {
  for (const o of Array.isArray(list) ? list : []) {
    if (o.type === 1 || o.type === 2) {
      if (typeof o.name === 'string') path.push(o.name);
      flatOptions(o.options, path, out);
    } else if (typeof o.name === 'string') out[o.name] = o.value;
  }
  return out;
}

export function signedFacts(body: Uint8Array): SignedFacts | undefined {
  let v: Record<string, any>;
  try {
    v = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    return undefined;
  }
  if (!v || typeof v !== 'object' || typeof v.id !== 'string') return undefined;
  const data = v.data ?? {};
  const path: string[] = [];
  return {
    id: v.id,
    type: Number(v.type),
    guild: v.guild_id,
    channel: v.channel_id ?? v.channel?.id,
    user: v.member?.user?.id ?? v.user?.id,
    command: typeof data.name === 'string' ? data.name : undefined,
    options: flatOptions(data.options, path),
    path,
    customId: typeof data.custom_id === 'string' ? data.custom_id : undefined,
    messageText: v.message ? JSON.stringify(v.message.embeds ?? []) : undefined,
  };
}

export const rowEvidenceOf = (r: ChainedRow): RowEvidence | undefined => {
  const e = (r.input as { evidence?: Partial<RowEvidence> } | null)?.evidence;
  if (!e || typeof e.interaction !== 'string' || typeof e.sha256 !== 'string') return undefined;
  const unasked = Array.isArray(e.unasked) ? e.unasked.filter((n): n is string => typeof n === 'string') : undefined;
  return { interaction: e.interaction, sha256: e.sha256, ...(unasked ? { unasked } : {}) };
};

/** Whether a message's text names this roll id as a whole word (ids are 10 lowercase letters and digits). */
const namesRoll = (text: string | undefined, id: string | null | undefined) =>
  !!text && !!id && new RegExp(`(^|[^0-9a-z])${id.replace(/[^0-9a-z]/g, '')}([^0-9a-z]|$)`).test(text);

/** Where the signed body and the row disagree on who, where and when, named; undefined when every field agrees. */
function fieldsDiffer(f: SignedFacts, r: ChainedRow, e: RowEvidence): string | undefined {
  if (f.id !== e.interaction) return `interaction ${f.id}, the row ${e.interaction}`;
  if (f.guild !== r.guild_id) return `guild ${String(f.guild)}, the row ${r.guild_id}`;
  if (f.channel !== r.channel_id) return `channel ${String(f.channel)}, the row ${r.channel_id}`;
  if (f.user !== r.user_id) return `user ${String(f.user)}, the row ${r.user_id}`;
  const beacon = (r.input as { beacon?: { interaction?: string } } | null)?.beacon?.interaction;
  if (beacon !== undefined && beacon !== f.id) return `interaction ${f.id}, the row's beacon binding ${beacon}`;
  // A roll bound to a beacon round may be written long after its request (a tournament roll waits
  // for its round as long as that takes): its dice are fixed by the interaction and the round, never
  // by when the row was written. Any other row is written within the request's 15 minutes.
  const late = Date.parse(r.created_at) - snowflakeTime(f.id);
  // Written so that a time that does not parse (NaN) fails rather than slipping past both bounds.
  if (!(late >= -ROW_WITHIN_MS) || (!(late <= ROW_WITHIN_MS) && beacon === undefined))
    return `a time ${new Date(snowflakeTime(f.id)).toISOString()}, more than 15 minutes from the row's ${r.created_at}`;
  return undefined;
}

/** What the request of a row checked against it came to: what is wrong, in words, or the options it left to defaults. */
function askedOf(f: SignedFacts, r: ChainedRow, e: RowEvidence, rows: ReadonlyMap<string, ChainedRow>): Asked {
  const none: Asked = { defaults: 0, filled: [] };
  const differs = fieldsDiffer(f, r, e);
  if (differs) return { ...none, problem: `row ${r.id}: Discord's signed request names ${differs}` };
  const notOne = notARequest(f);
  if (notOne) return { ...none, problem: `row ${r.id}: ${notOne}` };
  // The command and its options are the row's own on the rows the request decides (not its side effects).
  if (!DECISIVE_KINDS.has(r.kind)) return none;
  // An Acknowledge keeps Discord's copy of the message its button sat on: it must be the roll's. Its
  // footer names the roll in the channel's language ("roll", "Wurf", "jet"): the id itself is matched.
  if (r.command === 'acknowledge' && !namesRoll(f.messageText, r.parent_id))
    return {
      ...none,
      problem: `row ${r.id}: Discord's signed request names a message that is not roll ${String(r.parent_id)}'s result, as the acknowledgement's`,
    };
  const found = asksFor(f, r, e.unasked ?? [], rows);
  return found.problem ? { ...found, problem: `row ${r.id}: ${found.problem}` } : found;
}

/** One row's evidence checked: `problem` when it does not hold (in words), else the defaults and filled values its options used. */
export function evidenceProblem(keyHex: string, r: ChainedRow, e: RowEvidence, req: SignedRequest, rows: ReadonlyMap<string, ChainedRow> = new Map()): Asked {
  const failed = (problem: string): Asked => ({ problem, defaults: 0, filled: [] });
  let body: Uint8Array;
  try {
    body = bytesOfBase64(req.body);
  } catch {
    return failed(`the kept request of row ${r.id} is not base64`);
  }
  if (!HEX64.test(e.sha256) || evidenceDigest(req.timestamp, body) !== e.sha256)
    return failed(`the kept request of row ${r.id} is not the one its row commits to (SHA-256 differs): it was changed`);
  if (!signedUnder(keyHex, req, body))
    return failed(`Discord's signature on the request of row ${r.id} does not hold under the application key ${keyHex.slice(0, 12)}…`);
  const facts = signedFacts(body);
  if (!facts) return failed(`the request of row ${r.id} is not an interaction`);
  return askedOf(facts, r, e, rows);
}

export type EvidenceFound = { ok: true; said: string | undefined } | { ok: false; problem: string };

/** What a game's rows came to, for its report line. */
type Tally = { signed: number; pending: number; absent: number; defaults: number; filled: string[]; stale: string[]; erased: string[] };
type GameEvidence = {
  key: string | undefined;
  tournament: boolean;
  lookup: EvidenceLookup;
  rows: ReadonlyMap<string, ChainedRow>;
  /** The decisive row each request (by interaction and by digest) already backs. */
  backed: Map<string, string>;
  tally: Tally;
};

const isRoll = (r: ChainedRow) => r.kind === 'roll' || r.kind === 'reroll';
const isAck = (r: ChainedRow) => r.kind === 'annotation' && r.command === 'acknowledge';
/**
 * A tournament game's rows that exist only as a signed request: its rolls, an opponent's
 * acknowledgement, and every other row a request decides (a void, a ruling, a note, a decision).
 */
const mustBeSigned = (r: ChainedRow) => isRoll(r) || isAck(r) || DECISIVE_KINDS.has(r.kind);
const named = (r: ChainedRow) => (isAck(r) ? `acknowledgement ${r.id}` : isRoll(r) ? `roll ${r.id}` : `${r.kind} ${r.id}`);

/** A row with no request: an Acknowledge is only ever a signed press; a tournament game's roll only a signed request. */
function unsignedProblem(r: ChainedRow, g: GameEvidence): string | undefined {
  if (isAck(r)) return `acknowledgement ${r.id} of roll ${String(r.parent_id)} carries no Discord-signed press: it was not pressed through Discord`;
  if (g.tournament && mustBeSigned(r)) return `${named(r)} of a tournament game carries no Discord-signed request: it was not asked through Discord`;
  return undefined;
}

/** One request, one decisive row (a re-roll is its own press): a second row claiming it is named. */
function backedTwice(r: ChainedRow, e: RowEvidence, g: GameEvidence): string | undefined {
  if (!DECISIVE_KINDS.has(r.kind)) return undefined;
  const before = g.backed.get(e.interaction) ?? g.backed.get(e.sha256);
  if (before !== undefined)
    return `row ${r.id} claims the Discord-signed request that already backs row ${before} (interaction ${e.interaction}): one request backs one row`;
  g.backed.set(e.interaction, r.id);
  g.backed.set(e.sha256, r.id);
  return undefined;
}

/**
 * A request left out as pending: allowed while its row is younger than 15 minutes at the export's
 * own time (the latest time its rows commit); older, the row has no signed request.
 */
function pendingProblem(r: ChainedRow, e: RowEvidence, p: Pending, g: GameEvidence): string | undefined {
  // Young by the row's time and by its interaction's own (its snowflake, which a beacon binding of the
  // row must name too): a row dated ahead to look young binds a round nobody has published yet.
  const young = (t: number) => p.asOf !== undefined && p.asOf - t >= 0 && p.asOf - t < EVIDENCE_EMBARGO_MS;
  const beacon = (r.input as { beacon?: { interaction?: unknown } } | null)?.beacon?.interaction;
  const asked = /^\d{1,20}$/.test(e.interaction) ? snowflakeTime(e.interaction) : Number.NaN;
  if (young(Date.parse(r.created_at)) && young(asked) && (beacon === undefined || beacon === e.interaction)) {
    g.tally.pending++;
    return undefined;
  }
  if ((g.tournament && mustBeSigned(r)) || isAck(r))
    return `${named(r)}${g.tournament ? ' of a tournament game' : ''} has no signed request: the export marks it pending (younger than 15 minutes), but the row or the interaction it names is not younger than 15 minutes at the export's time${p.asOf === undefined ? '' : ` ${new Date(p.asOf).toISOString()}`}`;
  g.tally.stale.push(r.id);
  return undefined;
}

/** One row of a game: its request checked, or why it fails the game; what it came to is tallied. */
function rowProblem(r: ChainedRow, g: GameEvidence): string | undefined {
  const e = rowEvidenceOf(r);
  if (!e) return unsignedProblem(r, g);
  const twice = backedTwice(r, e, g);
  if (twice) return twice;
  const looked = g.lookup(e.interaction);
  if (looked && 'erased' in looked) {
    // An erasure stands for a request only where an honest one would (evidence-erased.ts); else the request is missing.
    const why = erasedProblem(r, e.interaction, looked.erased);
    if (!why) {
      g.tally.erased.push(`${r.id} (${looked.erased.at}, row ${looked.erased.row})`);
      return undefined;
    }
    if ((g.tournament && mustBeSigned(r)) || isAck(r)) return `the Discord-signed request of ${named(r)} is not in this export (${why})`;
  }
  const kept = looked && 'erased' in looked ? undefined : looked;
  if (kept && 'pending' in kept) return pendingProblem(r, e, kept, g);
  if (!kept) {
    // An Acknowledge is only ever a press: one whose press is not here is the host's word, in any game.
    if ((g.tournament && mustBeSigned(r)) || isAck(r)) return `the Discord-signed request of ${named(r)} is not in this export`;
    g.tally.absent++;
    return undefined;
  }
  if (!g.key) return `row ${r.id} names a Discord-signed request, but the game's first row commits no application key`;
  const found = evidenceProblem(g.key, r, e, kept, g.rows);
  if (found.problem) return found.problem;
  g.tally.signed++;
  g.tally.defaults += found.defaults;
  if (found.filled.length) g.tally.filled.push(`row ${r.id} ${found.filled.join(' ')}`);
  return undefined;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The game's evidence in one sentence, the same in every door. */
function saidOf(t: Tally, key: string | undefined, tournament: boolean, pinned = false): string {
  const whose = pinned ? ', the Discord key you pinned' : " (compare it with Discord's verify_key)";
  const parts = [`${plural(t.signed, 'row')} signed by Discord${key ? ` under application key ${key}${whose}` : ''}`];
  if (t.pending) parts.push(`${t.pending} younger than 15 minutes, left out`);
  if (t.stale.length)
    parts.push(
      `${t.stale.length} marked pending though older than 15 minutes at the export's time: no signed request (${plural(t.stale.length, 'row')} ${t.stale.join(', ')})`,
    );
  if (t.absent) parts.push(`${t.absent} not kept`);
  if (t.erased.length)
    parts.push(
      `${plural(t.erased.length, 'request')} erased with a person's data, so ${t.erased.length === 1 ? 'that row rests' : 'those rows rest'} on the host's word: ${t.erased.join(', ')}`,
    );
  if (t.defaults) parts.push(`${plural(t.defaults, 'option')} not in the request, at ${t.defaults === 1 ? 'its' : 'their'} command's declared default`);
  if (t.filled.length) parts.push(`options filled by the bot, not asked (its word: a roster's value or a pack's default): ${t.filled.join('; ')}`);
  // Unpinned, the key is what the game's first row says: the host's word, not Discord's.
  const word = key && !pinned ? "; that key is the host's word: pin Discord's own with --discord-key or verify.html's Discord key field" : '';
  const asked = t.erased.length ? 'every roll asked through Discord but those erased below' : 'every roll asked through Discord';
  return `${tournament ? `tournament: ${asked}; ` : ''}${parts.join(', ')}${word}`;
}

/**
 * A game's evidence: each row that names a request is checked against it under the key the game's
 * first row committed. A tournament game (`fair: tournament`) must have evidence on every roll:
 * a roll without it (one an operator appended by hand) is named.
 */
export function checkEvidence(start: ChainedRow, rows: readonly ChainedRow[], lookup: EvidenceLookup, pinned?: string): EvidenceFound {
  const first = (start.input ?? {}) as { discord_key?: unknown; fair?: unknown };
  const committed = typeof first.discord_key === 'string' ? first.discord_key : undefined;
  // Discord's own key, pinned by the reader, decides; a game whose first row commits another is named.
  if (pinned && committed !== undefined && committed.toLowerCase() !== pinned)
    return {
      ok: false,
      problem: `its first row commits application key ${committed}, not the Discord key you pinned (${pinned}): its requests are not that application's`,
    };
  const g: GameEvidence = {
    key: pinned ?? committed,
    tournament: first.fair === 'tournament',
    lookup,
    rows: new Map(rows.map((r) => [r.id, r])),
    backed: new Map(),
    tally: { signed: 0, pending: 0, absent: 0, defaults: 0, filled: [], stale: [], erased: [] },
  };
  for (const r of rows) {
    const problem = rowProblem(r, g);
    if (problem) return { ok: false, problem };
  }
  const erasedOf = (r: ChainedRow) => {
    const e = rowEvidenceOf(r);
    const x = e ? lookup(e.interaction) : undefined;
    return x && 'erased' in x && !erasedProblem(r, e!.interaction, x.erased) ? x.erased : undefined;
  };
  const kept = (r: ChainedRow) => {
    const e = rowEvidenceOf(r);
    const x = e ? lookup(e.interaction) : undefined;
    return x !== undefined && !('erased' in x) && !('pending' in x);
  };
  const partial = partialErasure(rows, erasedOf, kept);
  if (partial) return { ok: false, problem: partial };
  const t = g.tally;
  if (!t.signed && !t.pending && !t.absent && !t.stale.length && !t.erased.length && !g.tournament) return { ok: true, said: undefined };
  return { ok: true, said: saidOf(t, g.key, g.tournament, pinned !== undefined) };
}
