import { createHmac, hash, randomBytes } from 'node:crypto';
import { canonicalJson, pickChained } from './chain.js';
import { isObject } from '../util/own.js';

/**
 * Person fields on the chain as commitments. A row's hash covers its "chained" text: the row with
 * every value that names a person (their id, display name, the text they typed, and any text those
 * appear in) replaced by an HMAC under that person's salt. The values themselves stay in the row's
 * plain columns and the salts in `people`, beside the chain. Erasing a person deletes their salt
 * and blanks the values it covered: the chain, the dice and every other value still verify, and
 * the commitments they leave reveal nothing (the salt was 256 random bits).
 *
 * Pure, and shared by the writer and every verifier (verify.html bundles it).
 */

/** A person's salt in one guild: the key of their commitments there. */
export type PersonSalt = { salt_id: string; user_id: string; salt: string };

/** A new salt for a person: 256 random bits, under a random id of 96 bits (hex). */
export const newSalt = (userId: string): PersonSalt => ({ salt_id: randomBytes(12).toString('hex'), user_id: userId, salt: randomBytes(32).toString('hex') });

/** What stands in the chained text for a value naming people: the HMAC, and whose salts key it (by id, sorted). */
export type Commitment = { erasable: string; by: string[] };

/**
 * Input keys whose text a person typed, and, by command, those only that command's input types (a
 * roll asked of a player: the roll asked for; elsewhere `roll` is a row's id). Such text is
 * committed under everyone the row names, since it may be about any of them: erasing one takes it.
 */
const TYPED_KEYS = new Set(['note', 'reason', 'name', 'new_name', 'unit', 'side', 'brigade', 'companions']);
const TYPED_BY_COMMAND: Readonly<Record<string, ReadonlySet<string>>> = { ask: new Set(['roll']) };
/** Input keys whose value is another person's Discord id. */
const PERSON_KEYS = new Set(['player', 'user', 'seed_of']);
/** Below this length a person value is committed only where it is a whole value (a name "Al" is not looked for inside text). */
const INSIDE_MIN = 3;

/** The fields of a row that may name a person; the rest (ids, positions, command, kind, dice, result code, times) never do. */
export const PERSON_FIELDS = ['user_id', 'user_name', 'unit', 'input', 'outcome'] as const;
const PERSON_FIELD_SET = new Set<string>(PERSON_FIELDS);
export const isPersonField = (key: string): boolean => PERSON_FIELD_SET.has(key);

/**
 * Keys whose values are the rules' codes (a result, a step's kind or tone), never a person's words:
 * never committed, so a member named "pass" or "broken" cannot take a roll's outcome with them.
 */
const CODE_KEYS = new Set(['result', 'kind', 'tone', 'system', 'ref', 'command', 'check', 'category', 'shape', 'action', 'expression', 'counter']);

const HMAC_HEX = /^[0-9a-f]{64}$/;
const SALT_ID_HEX = /^[0-9a-f]+$/;

/**
 * A commitment as the writer makes one: salt ids and the HMAC in lower-case hex. An object of the
 * same keys holding anything else (a rule pack's own data may) is a value like any other.
 */
export const isCommitment = (v: unknown): v is Commitment =>
  typeof v === 'object' &&
  v !== null &&
  !Array.isArray(v) &&
  Object.keys(v).length === 2 &&
  typeof (v as Commitment).erasable === 'string' &&
  HMAC_HEX.test((v as Commitment).erasable) &&
  Array.isArray((v as Commitment).by) &&
  (v as Commitment).by.every((id) => typeof id === 'string' && SALT_ID_HEX.test(id));

/** A person named by a row: their id and the values of theirs it may hold. */
export type Named = { userId: string; values: string[] };

/**
 * Who a row names, and by which values: its maker (id, display name, unit, what they typed), the
 * people its input names by id, and those the caller adds (`also`: a reveal names the sealed roll's maker).
 */
export function peopleNamed(row: { user_id: string; user_name: string; unit: string | null; command: string; input: unknown }, also: Named[] = []): Named[] {
  const typedHere = Object.hasOwn(TYPED_BY_COMMAND, row.command) ? TYPED_BY_COMMAND[row.command] : undefined;
  const byId = new Map<string, Set<string>>();
  const add = (userId: string, ...values: (string | null | undefined)[]) => {
    if (!userId) return;
    const set = byId.get(userId) ?? byId.set(userId, new Set([userId])).get(userId)!;
    for (const v of values) if (v) set.add(v);
  };
  add(row.user_id, row.user_name, row.unit);
  // Only the input's own options are typed text or ids: nested values (a pack's definition, a
  // signed request's digests, a reveal's payload) are the bot's, whatever their keys are called.
  const typed: string[] = [];
  const input = isObject(row.input) ? row.input : {};
  for (const [key, v] of Object.entries(input)) {
    if (typeof v !== 'string') continue;
    if (PERSON_KEYS.has(key)) add(v);
    else if (TYPED_KEYS.has(key) || typedHere?.has(key)) typed.push(v);
  }
  for (const n of also) add(n.userId, ...n.values);
  for (const userId of byId.keys()) add(userId, ...typed);
  return [...byId].map(([userId, values]) => ({ userId, values: [...values] }));
}

/** The commitment to a value under salts: HMAC-SHA256 of its canonical JSON, keyed by each salt in turn. */
export function commitTo(value: unknown, salts: readonly PersonSalt[]): Commitment {
  const keys = salts.length > 1 ? [...salts].sort((a, b) => (a.salt_id < b.salt_id ? -1 : 1)) : salts;
  const text = canonicalJson(value);
  // Found by a digest of the salts and the value (never the value itself: nothing a person said is
  // kept for this), and by the salts, not their ids: a verifier may be handed a file whose ids lie.
  const id = hash('sha256', JSON.stringify([...keys.map((s) => s.salt), text]));
  let h = commitments.get(id);
  if (h === undefined) {
    h = hmacUnder(
      text,
      keys.map((s) => s.salt),
    );
    if (commitments.size >= COMMITMENTS_KEPT) commitments.clear();
    commitments.set(id, h);
  }
  return { erasable: h, by: keys.map((s) => s.salt_id) };
}

/** A value's canonical text under salts, in the order given (sorted by salt id): HMAC-SHA256 keyed by each in turn. */
export function hmacUnder(text: string, salts: readonly string[]): string {
  let h = text;
  for (const salt of salts) h = createHmac('sha256', salt).update(h).digest('hex');
  return h;
}

/**
 * HMACs computed lately: a player's id, name and unit recur in every row of theirs, and an HMAC
 * object a value (its key schedule and two hashes) was a fifth of a roll's own work.
 */
const commitments = new Map<string, string>();
const COMMITMENTS_KEPT = 4_096;

type Holder = { salt: PersonSalt; values: string[] };

/** A text names a person when it is one of their values, or is prose (it has a space) holding one. */
const names = (text: string, prose: boolean, values: string[]) => values.some((x) => text === x || (prose && x.length >= INSIDE_MIN && text.includes(x)));

/** Whose values a text holds. */
function holdersOf(text: string, holders: Holder[]): PersonSalt[] {
  const prose = /\s/.test(text);
  const who: PersonSalt[] = [];
  for (const h of holders) if (names(text, prose, h.values)) who.push(h.salt);
  return who;
}

/**
 * A value with every part naming a person replaced by its commitment. An object keyed by a person's
 * id is committed whole; keys are never searched for names (a member called "steps" must not take
 * an outcome's structure with them).
 */
function commitTree(v: unknown, holders: Holder[]): unknown {
  if (typeof v === 'string') {
    const who = holdersOf(v, holders);
    return who.length ? commitTo(v, who) : v;
  }
  if (v === null || typeof v !== 'object' || isCommitment(v)) return v;
  if (Array.isArray(v))
    return sameOr(
      v,
      v.map((x) => commitTree(x, holders)),
    );
  const keyedBy = holders.filter((h) => Object.hasOwn(v, h.salt.user_id)).map((h) => h.salt);
  if (keyedBy.length) return commitTo(v, keyedBy);
  const entries = Object.entries(v);
  const committed = entries.map(([k, x]) => [k, OPAQUE_KEYS.has(k) || (CODE_KEYS.has(k) && typeof x === 'string') ? x : commitTree(x, holders)] as const);
  return committed.every(([, x], i) => x === entries[i]![1]) ? v : Object.fromEntries(committed);
}

/** The array itself when nothing in it was committed: the writer reuses the canonical text of what did not change. */
const sameOr = (v: unknown[], committed: unknown[]) => (committed.every((x, i) => x === v[i]) ? v : committed);

/**
 * Values the chain holds as they are, whatever text is in them: a pack's definition (its hash is
 * checked against it), a pack roll's options (its re-adjudication reads them) and a signed
 * request's digests, which name no one by themselves. A dice expression and an ASL counter are
 * codes too: the verifiers read the dice's sizes and the unit from them.
 */
const OPAQUE_KEYS = new Set(['pack', 'evidence', 'options']);

/**
 * The row's person fields as the chain commits them, under the salts of the people it names. A
 * field whose canonical text is at hand (`texts`) and holds none of their values is left as it is,
 * unwalked: a value found in a string is found in its JSON text, escaped as JSON escapes it (each
 * character alone: a lone surrogate, which could pair with its neighbour, never gets this far, since
 * canonicalJson refuses one and the transports make text well-formed first).
 */
export function committedFields<R extends Record<string, unknown>>(
  row: R,
  named: Named[],
  saltOf: (userId: string) => PersonSalt,
  texts: Readonly<Record<string, string>> = {},
): R {
  const holders = named.map((n) => ({ salt: saltOf(n.userId), values: n.values }));
  const escaped = holders.flatMap((h) => h.values.map((x) => JSON.stringify(x).slice(1, -1)));
  const out: Record<string, unknown> = { ...row };
  for (const k of PERSON_FIELDS) {
    if (row[k] === null || row[k] === undefined) continue;
    const text = texts[k];
    if (text !== undefined && !escaped.some((x) => text.includes(x))) continue;
    out[k] = commitTree(row[k], holders);
  }
  return out as R;
}

/** A payload (a sealed roll's) as its commitment covers it: every part naming a person committed. */
export const committedValue = (v: unknown, named: Named[], saltOf: (userId: string) => PersonSalt) =>
  commitTree(
    v,
    named.map((n) => ({ salt: saltOf(n.userId), values: n.values })),
  );

/** Salts by id, as a verifier or the eraser holds them. */
export type SaltsById = ReadonlyMap<string, string>;

export type Held = { ok: true; erased: string[] } | { ok: false; why: string };

/**
 * A plain value against what the chain committed: every part not committed must be equal; every
 * commitment must be opened by the plain value under its salts, or its salts be gone (erased: the
 * plain value is then blank). Returns the ids of the erased salts met.
 */
export function checkCommitted(plain: unknown, chained: unknown, salts: SaltsById, where = ''): Held {
  const erased = new Set<string>();
  const fail = (why: string): Held => ({ ok: false, why });
  const walk = (p: unknown, c: unknown, at: string): string | undefined => {
    if (isCommitment(c)) {
      // The writer never commits under no salt: such an "HMAC" would be the value's own text.
      if (c.by.length === 0) return `${at} is committed under no salt`;
      const missing = c.by.filter((id) => !salts.has(id));
      if (missing.length) {
        for (const id of missing) erased.add(id);
        return isBlank(p) ? undefined : `${at} keeps a value whose salt is erased`;
      }
      const opened = commitTo(
        p,
        c.by.map((id) => ({ salt_id: id, user_id: '', salt: salts.get(id)! })),
      );
      if (opened.erasable === c.erasable) return undefined;
      // Blank beside a salt still held: erased after the salts were read (an erasure during a walk),
      // counted as erased, which an erasure row must then name (erased-salts.ts), like any other.
      if (isBlank(p)) {
        for (const id of c.by) erased.add(id);
        return undefined;
      }
      return `${at} does not match its commitment`;
    }
    if (Array.isArray(c)) {
      if (!Array.isArray(p) || p.length !== c.length) return `${at} differs from the chained value`;
      for (let i = 0; i < c.length; i++) {
        const why = walk(p[i], c[i], `${at}[${i}]`);
        if (why) return why;
      }
      return undefined;
    }
    if (c !== null && typeof c === 'object') {
      if (p === null || typeof p !== 'object' || Array.isArray(p)) return `${at} differs from the chained value`;
      const keys = Object.keys(c);
      if (keys.length !== Object.keys(p).length || keys.some((k) => !Object.hasOwn(p, k))) return `${at} differs from the chained value`;
      for (const k of keys) {
        const why = walk((p as Record<string, unknown>)[k], (c as Record<string, unknown>)[k], `${at}.${k}`);
        if (why) return why;
      }
      return undefined;
    }
    return (p ?? null) === c ? undefined : `${at} differs from the chained value`;
  };
  const why = walk(plain, chained, where);
  return why ? fail(why.replace(/^\./, '')) : { ok: true, erased: [...erased] };
}

/** What an erased value leaves in the plain columns. */
const isBlank = (v: unknown) => v === null || v === '' || v === undefined;

/**
 * A plain value with every part committed under an erased salt blanked (`''` where the column
 * needs text, null elsewhere): what erasure writes, and what a verifier compares a recomputed
 * value with once its row is erased.
 */
export function blankErased(plain: unknown, chained: unknown, erased: ReadonlySet<string>, blank: '' | null = null): unknown {
  if (isCommitment(chained)) return chained.by.some((id) => erased.has(id)) ? blank : plain;
  if (Array.isArray(chained) && Array.isArray(plain)) return plain.map((p, i) => blankErased(p, chained[i], erased));
  if (chained && typeof chained === 'object' && plain && typeof plain === 'object' && !Array.isArray(plain))
    return Object.fromEntries(Object.entries(plain).map(([k, p]) => [k, blankErased(p, (chained as Record<string, unknown>)[k], erased)]));
  return plain;
}

/** Every salt id a committed value names. */
export function saltIdsIn(chained: unknown, into = new Set<string>()): Set<string> {
  if (isCommitment(chained)) for (const id of chained.by) into.add(id);
  else if (Array.isArray(chained)) for (const x of chained) saltIdsIn(x, into);
  else if (chained && typeof chained === 'object') for (const x of Object.values(chained)) saltIdsIn(x, into);
  return into;
}

/** A row's check against its chained text: held (with the erased salts it met), or why not. */
export function checkRow(plain: Record<string, unknown>, chained: Record<string, unknown>, salts: SaltsById): Held {
  const keys = Object.keys(pickChained(plain as never));
  const extra = Object.keys(chained).filter((k) => !keys.includes(k));
  if (extra.length) return { ok: false, why: `the chained text holds ${extra.join(', ')}, which the row does not` };
  const erased = new Set<string>();
  for (const k of keys) {
    const c = chained[k] ?? null;
    const p = plain[k] ?? null;
    if (!(PERSON_FIELDS as readonly string[]).includes(k)) {
      if (canonicalJson(p) !== canonicalJson(c)) return { ok: false, why: `${k} differs from the chained value` };
      continue;
    }
    const held = checkCommitted(p, c, salts, k);
    if (!held.ok) return held;
    for (const id of held.erased) erased.add(id);
  }
  return { ok: true, erased: [...erased] };
}

/** A salt id as the bot writes one (hex): anything else in a `by` list is an edit, which names no salt. */
const SALT_ID = /"([0-9a-f]+)"/g;
/**
 * The salt ids a row's chained text names, read from its text without parsing it: each `"by":[`
 * list up to the first `]` after it, the next looked for after that. Once one has no `]`, none
 * after it has: each character is read once, however the text was crafted.
 */
export function saltIdsOf(chained: string): string[] {
  const ids: string[] = [];
  for (let open = chained.indexOf('"by":['); open >= 0; ) {
    const close = chained.indexOf(']', open);
    if (close < 0) break;
    for (const m of chained.slice(open + 6, close).matchAll(SALT_ID)) ids.push(m[1]!);
    open = chained.indexOf('"by":[', close + 1);
  }
  return ids;
}

/** Every value a commitment stands for, blanked: what is left to compare of a value whose salts a check does not hold. */
export const blankCommitted = (plain: unknown, chained: unknown) => blankErased(plain, chained, { has: () => true } as unknown as ReadonlySet<string>);
