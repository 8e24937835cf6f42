import { createHash, createPublicKey, verify } from 'node:crypto';
import { snowflakeTime } from '../beacon/chain.js';
import type { ChainedRow } from '../ledger/chain.js';

/**
 * Discord's signature as evidence (issue 45). In HTTP interactions mode Discord signs every request
 * it sends (Ed25519 over the timestamp header followed by the raw body). The bot keeps those exact
 * bytes beside the chain, and each row an interaction writes commits to SHA-256(timestamp ‖ body)
 * and the interaction's id. Anyone holding the application's public key (the game's first row
 * commits it; Discord serves it as `verify_key`) can then check that this user asked for this
 * command, with these options, in this guild and channel, at this time: the operator cannot forge
 * that. The checks here serve every verifier: /verify, `npm run verify` and verify.html.
 */

/** What Discord signed, as kept: the timestamp header, the signature (hex), the raw body (base64). */
export type SignedRequest = { timestamp: string; signature: string; body: string };
/** What a row commits to of the request behind it. */
export type RowEvidence = { interaction: string; sha256: string };
/** A kept request, or 'pending' while its body's reply token still works (exports leave it out then). */
export type EvidenceLookup = (interaction: string) => SignedRequest | 'pending' | undefined;

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

/** What a signed body says, read defensively: a body that is not an interaction gives undefined. */
export type SignedFacts = {
  id: string;
  type: number;
  guild: string | undefined;
  channel: string | undefined;
  user: string | undefined;
  command: string | undefined;
  options: Record<string, unknown>;
  customId: string | undefined;
  /** The text of the message a button sits on (its embeds), as Discord sent it. */
  messageText: string | undefined;
};

type RawOption = { name?: unknown; type?: unknown; value?: unknown; options?: RawOption[] };

/** Options flattened past a subcommand (and a group), by name. */
function flatOptions(list: RawOption[] | undefined, out: Record<string, unknown> = {}): Record<string, unknown> {
  for (const o of list ?? []) {
    if (o.type === 1 || o.type === 2) flatOptions(o.options, out);
    else if (typeof o.name === 'string') out[o.name] = o.value;
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
  return {
    id: v.id,
    type: Number(v.type),
    guild: v.guild_id,
    channel: v.channel_id ?? v.channel?.id,
    user: v.member?.user?.id ?? v.user?.id,
    command: typeof data.name === 'string' ? data.name : undefined,
    options: flatOptions(data.options),
    customId: typeof data.custom_id === 'string' ? data.custom_id : undefined,
    messageText: v.message ? JSON.stringify(v.message.embeds ?? []) : undefined,
  };
}

export const rowEvidenceOf = (r: ChainedRow): RowEvidence | undefined => {
  const e = (r.input as { evidence?: Partial<RowEvidence> } | null)?.evidence;
  return e && typeof e.interaction === 'string' && typeof e.sha256 === 'string' ? (e as RowEvidence) : undefined;
};

const norm = (v: unknown) => (typeof v === 'string' ? v.normalize('NFC').trim().toLowerCase() : v);

/** The options Discord signed against the row's: each given in both must agree (text up to case and spacing). */
function optionsDiffer(signed: Record<string, unknown>, row: Record<string, unknown>): string | undefined {
  for (const [name, value] of Object.entries(signed)) {
    const kept = row[name];
    if (kept === undefined || typeof value === 'object' || typeof kept === 'object') continue;
    if (norm(value) !== norm(kept)) return `option ${name} ${JSON.stringify(value)}, the row ${JSON.stringify(kept)}`;
  }
  return undefined;
}

/** A button's custom_id names the row it acts on: the row's parent, its once-key, or the row itself. */
function buttonDiffers(customId: string | undefined, r: ChainedRow): string | undefined {
  const target = customId?.split(':').pop();
  if (target && (r.parent_id === target || r.id === target || (r.once_key ?? '').endsWith(target))) return undefined;
  return `the button ${JSON.stringify(customId ?? null)}, which does not name the row's roll`;
}

/** Where the signed body and the row disagree, named; undefined when every field agrees. */
function fieldsDiffer(f: SignedFacts, r: ChainedRow, e: RowEvidence): string | undefined {
  if (f.id !== e.interaction) return `interaction ${f.id}, the row ${e.interaction}`;
  if (f.guild !== r.guild_id) return `guild ${String(f.guild)}, the row ${r.guild_id}`;
  if (f.channel !== r.channel_id) return `channel ${String(f.channel)}, the row ${r.channel_id}`;
  if (f.user !== r.user_id) return `user ${String(f.user)}, the row ${r.user_id}`;
  const beacon = (r.input as { beacon?: { interaction?: string } } | null)?.beacon?.interaction;
  if (beacon !== undefined && beacon !== f.id) return `interaction ${f.id}, the row's beacon binding ${beacon}`;
  if (Math.abs(Date.parse(r.created_at) - snowflakeTime(f.id)) > ROW_WITHIN_MS)
    return `a time ${new Date(snowflakeTime(f.id)).toISOString()}, more than 15 minutes from the row's ${r.created_at}`;
  // The command and its options are the row's own on the rows the command decides (not its side effects).
  if (r.kind !== 'roll' && r.kind !== 'reroll' && r.kind !== 'check' && r.kind !== 'annotation') return undefined;
  // An Acknowledge keeps Discord's copy of the message its button sat on: it must be the roll's.
  if (r.command === 'acknowledge' && !f.messageText?.includes(`roll ${r.parent_id}`))
    return `a message that is not roll ${String(r.parent_id)}'s result, as the acknowledgement's`;
  if (f.type === 3) return buttonDiffers(f.customId, r);
  if (f.command !== r.command) return `command /${String(f.command)}, the row /${r.command}`;
  return optionsDiffer(f.options, (r.input ?? {}) as Record<string, unknown>);
}

/** One row's evidence checked: undefined when it holds, else what is wrong, in words. */
export function evidenceProblem(keyHex: string, r: ChainedRow, e: RowEvidence, req: SignedRequest): string | undefined {
  let body: Uint8Array;
  try {
    body = bytesOfBase64(req.body);
  } catch {
    return `the kept request of row ${r.id} is not base64`;
  }
  if (!HEX64.test(e.sha256) || evidenceDigest(req.timestamp, body) !== e.sha256)
    return `the kept request of row ${r.id} is not the one its row commits to (SHA-256 differs): it was changed`;
  if (!signedUnder(keyHex, req, body))
    return `Discord's signature on the request of row ${r.id} does not hold under the application key ${keyHex.slice(0, 12)}…`;
  const facts = signedFacts(body);
  if (!facts) return `the request of row ${r.id} is not an interaction`;
  const differs = fieldsDiffer(facts, r, e);
  return differs ? `row ${r.id}: Discord's signed request names ${differs}` : undefined;
}

export type EvidenceFound = { ok: true; said: string | undefined } | { ok: false; problem: string };

/**
 * A game's evidence: each row that names a request is checked against it under the key the game's
 * first row committed. A tournament game (`fair: tournament`) must have evidence on every roll:
 * a roll without it (one an operator appended by hand) is named.
 */
export function checkEvidence(start: ChainedRow, rows: readonly ChainedRow[], lookup: EvidenceLookup): EvidenceFound {
  const first = (start.input ?? {}) as { discord_key?: unknown; fair?: unknown };
  const key = typeof first.discord_key === 'string' ? first.discord_key : undefined;
  const tournament = first.fair === 'tournament';
  let signed = 0;
  let pending = 0;
  let absent = 0;
  for (const r of rows) {
    const e = rowEvidenceOf(r);
    const isRoll = r.kind === 'roll' || r.kind === 'reroll';
    if (!e) {
      if (tournament && isRoll)
        return { ok: false, problem: `roll ${r.id} of a tournament game carries no Discord-signed request: it was not asked through Discord` };
      continue;
    }
    const kept = lookup(e.interaction);
    if (kept === 'pending') pending++;
    else if (!kept) {
      if (tournament && isRoll) return { ok: false, problem: `the Discord-signed request of roll ${r.id} is not in this export` };
      absent++;
    } else if (!key) return { ok: false, problem: `row ${r.id} names a Discord-signed request, but the game's first row commits no application key` };
    else {
      const problem = evidenceProblem(key, r, e, kept);
      if (problem) return { ok: false, problem };
      signed++;
    }
  }
  if (!signed && !pending && !absent && !tournament) return { ok: true, said: undefined };
  const parts = [
    `${signed} row${signed === 1 ? '' : 's'} signed by Discord${key ? ` under application key ${key} (compare it with Discord's verify_key)` : ''}`,
  ];
  if (pending) parts.push(`${pending} younger than 15 minutes, left out`);
  if (absent) parts.push(`${absent} not kept`);
  return { ok: true, said: `${tournament ? 'tournament: every roll asked through Discord; ' : ''}${parts.join(', ')}` };
}
