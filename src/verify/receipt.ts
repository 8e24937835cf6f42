import { createHash } from 'node:crypto';
import { canonicalJson } from '../ledger/chain.js';

/**
 * Signed receipts: a few readable lines and one last line
 * `MO1.<base64url of the canonical JSON of the fields>.<base64url of its Ed25519 signature>`.
 * The signature covers exactly the decoded JSON, so wrapping or quoting the lines (e-mail, a VASL
 * chat) cannot break it; a verifier strips whitespace and `>` and decodes the last line, and also
 * refuses readable lines that say something the signed fields do not. This module is shared by
 * the bot, `npm run verify` and verify.html (node:crypto is a WebCrypto-free shim in the page).
 */
export const RECEIPT_PREFIX = 'MO1';

export type ReceiptFields = {
  v: 1;
  roll: string;
  guild: string;
  seq: number;
  game: string | null;
  game_name: string | null;
  turn: number | null;
  phase: string | null;
  player: string;
  player_id: string;
  command: string;
  dice: number[];
  result: string | null;
  /** The void's reason, when a GM voided the roll. */
  voided: string | null;
  hash: string;
  at: string;
  signed_at: string;
  /** The signing key's fingerprint. */
  key: string;
};

/** A trusted public key: base64url of the raw 32-byte Ed25519 key, with when it was in use if known. */
export type TrustedKey = { public_key: string; valid_from?: string; valid_until?: string | null };

/** The bot's key in use: its fingerprint, its public half, and signing with its private half. */
export type Signer = { fingerprint: string; publicKey: string; sign(data: Uint8Array): Uint8Array };

/** Checks an Ed25519 signature: node:crypto in Node, WebCrypto (or a vetted fallback) in the page. */
export type Ed25519Verify = (publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array) => Promise<boolean>;

export function toBase64url(bytes: Uint8Array): string {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function fromBase64url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined;
  const bin = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4));
  const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  // Only the one spelling of these bytes: a last character whose unused bits are set would decode
  // to the same bytes, and a receipt with that character changed must not pass.
  return toBase64url(bytes) === text ? bytes : undefined;
}

/** A key's fingerprint: the first 16 hex characters of SHA-256 over its raw 32 bytes. */
export const fingerprintOf = (publicKey: string): string =>
  createHash('sha256')
    .update(fromBase64url(publicKey) ?? new Uint8Array())
    .digest('hex')
    .slice(0, 16);

/** The readable lines of a receipt: what the signed fields say, for people. */
export function readableLines(f: ReceiptFields): string[] {
  const game = f.game
    ? `Game: ${f.game_name ?? f.game} (${f.game})${f.turn !== null ? ` · turn ${f.turn}` : ''}${f.phase ? ` · ${f.phase}` : ''}`
    : 'Outside any game';
  return [
    `Morale Officer receipt · roll ${f.roll} · server ${f.guild} · position ${f.seq}`,
    game,
    `Player: ${f.player} (${f.player_id}) · ${f.at}`,
    `Command: ${f.command}`,
    `Dice: ${f.dice.length ? f.dice.join(', ') : 'none'} · Result: ${f.result ?? 'none'}${f.voided !== null ? ` · VOIDED: ${f.voided}` : ''}`,
    `Row hash: ${f.hash}`,
    `Signed by key ${f.key} at ${f.signed_at}`,
  ];
}

/** The canonical bytes a receipt signs. */
export const receiptPayload = (f: ReceiptFields): Uint8Array => new TextEncoder().encode(canonicalJson(f));

/** The whole receipt text, from its fields and the signature over receiptPayload(fields). */
export const receiptText = (f: ReceiptFields, signature: Uint8Array): string =>
  [...readableLines(f), `${RECEIPT_PREFIX}.${toBase64url(receiptPayload(f))}.${toBase64url(signature)}`].join('\n');

export type ReceiptVerdict = { ok: true; fields: ReceiptFields; lines: string[] } | { ok: false; lines: string[] };

const refused = (why: string): ReceiptVerdict => ({ ok: false, lines: [`receipt REFUSED: ${why}`] });
/** Lines as a mail client may have quoted and wrapped them (anywhere, even inside a hash): their characters, spaces left out. */
const words = (lines: string[]) =>
  lines
    .map((l) => l.replace(/^[\s>]+/, ''))
    .join('')
    .replace(/\s+/g, '');

type Decoded = { fields: ReceiptFields; payload: Uint8Array; signature: Uint8Array; readable: string[] };

/** The MO1 line (stripped of whitespace and quoting) decoded, or why it cannot be. */
function decode(text: string): Decoded | string {
  const at = text.lastIndexOf(`${RECEIPT_PREFIX}.`);
  if (at < 0) return `there is no ${RECEIPT_PREFIX} line: paste the whole receipt, its last line included`;
  // An Ed25519 signature is 64 bytes, 86 base64url characters: whatever follows them (an e-mail's
  // closing words) is not the receipt's.
  const line = text.slice(at).replace(/[\s>]/g, '');
  const m = new RegExp(`^${RECEIPT_PREFIX}\\.([A-Za-z0-9_-]+)\\.([A-Za-z0-9_-]{86})`).exec(line);
  const payload = m && fromBase64url(m[1]!);
  const signature = m && fromBase64url(m[2]!);
  if (!payload || !signature) return `the ${RECEIPT_PREFIX} line is damaged: it must be ${RECEIPT_PREFIX}.<base64url>.<base64url>`;
  let fields: ReceiptFields;
  let signedLines: string[];
  try {
    const json = new TextDecoder('utf-8', { fatal: true }).decode(payload);
    fields = JSON.parse(json) as ReceiptFields;
    if (canonicalJson(fields) !== json || fields.v !== 1 || typeof fields.key !== 'string') throw new Error('not canonical');
    // Written out here too: fields of the wrong shape are a damaged receipt, never a crash of the verifier.
    signedLines = readableLines(fields);
  } catch {
    return `the ${RECEIPT_PREFIX} line does not hold a receipt's signed fields (it was changed, or cut)`;
  }
  // The readable part is what precedes the MO1 line: from some line on, it must read exactly as the
  // signed fields write it, whatever quoting and wrapping a mail client added (the words of an e-mail
  // before that line, or a note or a name holding the title, move nothing). When no line starts that,
  // everything pasted above the MO1 line is taken as its readable part, so a receipt whose first line
  // was dropped or rewritten, and its dice then changed, is refused: only the MO1 line alone, or the
  // receipt whole, holds.
  const lines = text.slice(0, at).split('\n');
  const signed = words(signedLines);
  let tail = '';
  let start = -1;
  // From the last line up, until the tail is longer than what was signed: one pass, however long the e-mail.
  for (let i = lines.length - 1; i >= 0 && start < 0 && tail.length <= signed.length; i--) {
    tail = words([lines[i]!]) + tail;
    if (tail === signed) start = i;
  }
  return { fields, payload, signature, readable: start < 0 ? lines : lines.slice(start) };
}

/** A receipt's signed fields, or why they cannot be read (the readers look for its roll first). */
export function receiptFields(text: string): ReceiptFields | string {
  const d = decode(text);
  return typeof d === 'string' ? d : d.fields;
}

/**
 * What a loaded export says of a receipt: the keys its guild's chain records (trusted for receipts
 * of that guild, each until the next), and the roll the receipt names, if the export holds it.
 */
export type ExportEvidence = {
  keys: { guildId: string; public_key: string; valid_from: string }[];
  roll: { id: string; guildId: string; hash: string; voided: string | null } | undefined;
};

/** The keys a receipt may be checked against: those given out of band, and its guild's chained ones. */
function trustedFor(fields: ReceiptFields, outOfBand: TrustedKey[], loaded: ExportEvidence | undefined): TrustedKey[] {
  const chained = (loaded?.keys ?? []).filter((k) => k.guildId === fields.guild).sort((a, b) => a.valid_from.localeCompare(b.valid_from));
  return [...outOfBand, ...chained.map((k, i) => ({ public_key: k.public_key, valid_from: k.valid_from, valid_until: chained[i + 1]?.valid_from ?? null }))];
}

/** With an export loaded, the receipt's roll must be in it, in its guild, with the same row hash. */
function againstExport(fields: ReceiptFields, loaded: ExportEvidence): string | undefined {
  const r = loaded.roll;
  if (!r) return `roll ${fields.roll} is not in the export loaded: a receipt of a roll the chain does not hold proves nothing`;
  if (r.guildId !== fields.guild) return `roll ${fields.roll} is in guild ${r.guildId} in the export, not ${fields.guild} as the receipt says`;
  if (r.hash !== fields.hash) return `roll ${fields.roll}'s row hash in the export is ${r.hash}, not the ${fields.hash} the receipt was signed over`;
  return undefined;
}

/**
 * Checks a receipt against the keys you trust: those given out of band (the page's key field,
 * `--key`) and, with an export loaded, those its receipt's guild's chain records — never a key
 * line that merely sits in an export. The key it names must be one of them, in use when it signed,
 * and its signature must hold over the signed fields; the readable lines must say what those fields
 * say. With an export loaded, the roll must be in it with the same row hash, and a later void is said.
 */
export async function checkReceipt(text: string, outOfBand: TrustedKey[], verify: Ed25519Verify, loaded?: ExportEvidence): Promise<ReceiptVerdict> {
  const d = decode(text);
  if (typeof d === 'string') return refused(d);
  const { fields } = d;
  const trusted = trustedFor(fields, outOfBand, loaded);
  const key = trusted.find((k) => fingerprintOf(k.public_key) === fields.key);
  if (!key) {
    const known = trusted.map((k) => fingerprintOf(k.public_key)).join(', ') || 'none given';
    return refused(`it is signed by key ${fields.key}, which is not a key you trust (trusted: ${known})`);
  }
  if (!(await verify(fromBase64url(key.public_key)!, d.payload, d.signature)))
    return refused(`its signature does not hold under key ${fields.key}: the signed line was changed after it was signed, or forged`);
  if ((key.valid_from && fields.signed_at < key.valid_from) || (key.valid_until && fields.signed_at >= key.valid_until))
    return refused(`key ${fields.key} was not in use at ${fields.signed_at} (in use ${key.valid_from ?? '?'} to ${key.valid_until ?? 'now'})`);
  // Only the signed line may be pasted; readable lines given must say what it says.
  const given = words(d.readable);
  if (given && given !== words(readableLines(fields)))
    return refused(
      `its readable lines were changed: they no longer say what the signed line says. What was signed:\n${readableLines(fields).join('\n')}\n(paste the receipt whole, from its first line, or its ${RECEIPT_PREFIX} line alone)`,
    );
  const missing = loaded ? againstExport(fields, loaded) : undefined;
  if (missing) return refused(missing);
  const voided = loaded?.roll?.voided;
  const later = voided && fields.voided === null ? [`VOIDED since it was signed: ${voided}`] : [];
  const scope = loaded
    ? [`the roll is in the export loaded, with the same row hash`]
    : ['no export loaded: whether the roll is on record, and any later void, was not checked'];
  return { ok: true, fields, lines: [`receipt valid: roll ${fields.roll} signed by key ${fields.key}`, ...later, ...scope, ...readableLines(fields)] };
}
