import { randomBytes } from 'node:crypto';
import { customAlphabet } from 'nanoid';
import { canonicalForm } from './canonical-json.js';
import { canonicalJson, canonicalWith, GENESIS_HASH, hashedKeys, sealCommitment, storedRowHash, type ChainedFields } from './chain.js';
import { storedChained } from './chained-overlay.js';
import { committedFields, committedValue, newSalt, peopleNamed, type PersonSalt } from './people.js';
import type { NewEntry } from './rows.js';

/** Roll ids: short, unambiguous to read aloud or type (no i, l, o, u). */
export const newRollId = customAlphabet('0123456789abcdefghjkmnpqrstvwxyz', 10);

/** A guild's chain head: its last position and hash (none before the first row). */
export type ChainHead = { guild_seq: number; hash: string } | undefined;

/** A row ready to insert: the chained fields, the same with the JSON columns as stored text, and its hashes. */
export type NextRow = {
  fields: ChainedFields;
  stored: Omit<ChainedFields, 'input' | 'dice' | 'outcome'> & { input: string; dice: string; outcome: string; chained: string | null };
  /** The whole chained text the hash covers (people.ts), where `stored.chained` may hold only its commitments (chained-overlay.ts). */
  chained: string | null;
  prev_hash: string;
  hash: string;
  /** A sealed roll's secret: the salt, the canonical payload, and that payload as its commitment covers it (people committed). */
  sealed?: { salt: string; payload: string; committed: string | null };
  /** Salts drawn for people this guild's chain names for the first time: stored with the row. */
  newPeople: PersonSalt[];
};

/** A person's salt in the row's guild, when they have one (read by the caller inside the append's transaction). */
export type SaltLookup = (userId: string) => PersonSalt | undefined;

/** Whose salts a row needs: the people it names (people.ts). */
export const namedIn = (entry: NewEntry) =>
  peopleNamed({ user_id: entry.userId, user_name: entry.userName, unit: entry.unit ?? null, command: entry.command, input: entry.input }, entry.named ?? []);

/** The committed row with the input values its caller committed already (a reveal's payload) in place. */
function withChainedInput(committed: ChainedFields, entry: NewEntry): ChainedFields {
  if (!entry.chainedInput) return committed;
  return { ...committed, input: { ...(committed.input as Record<string, unknown>), ...entry.chainedInput } };
}

/**
 * The committed row's canonical text, the plain columns' text reused wherever nothing in them names
 * a person; and what the row stores for it: only the commitments, where they say it all.
 */
function chainedTexts(fields: ChainedFields, texts: { input: string; dice: string; outcome: string }, committed: ChainedFields) {
  const same: Partial<Record<keyof ChainedFields, string>> = {};
  for (const k of ['input', 'dice', 'outcome'] as const) if (committed[k] === fields[k]) same[k] = texts[k];
  const whole = canonicalWith(committed, same);
  const asRecord = (r: ChainedFields) => r as unknown as Record<string, unknown>;
  return { whole, stored: storedChained(asRecord(fields), asRecord(committed), hashedKeys(fields), whole) };
}

/** Every salt a row needs, the known ones looked up and the others drawn (returned to be stored). */
function saltsFor(entry: NewEntry, known: SaltLookup) {
  const named = namedIn(entry);
  const fresh: PersonSalt[] = [];
  const salts = new Map<string, PersonSalt>();
  for (const n of named) {
    const had = known(n.userId);
    const s = had ?? newSalt(n.userId);
    if (!had) fresh.push(s);
    salts.set(n.userId, s);
  }
  return { named, fresh, saltOf: (userId: string) => salts.get(userId)! };
}

/**
 * The next row of a guild's chain, the same for every backend (SQLite, PostgreSQL): each JSON value
 * is canonicalised once, stored as that text and hashed as that text. A sealed roll chains a
 * commitment in place of its dice, outcome and result. Pure but for the id and the salt it draws.
 */
export function nextRow(entry: NewEntry, head: ChainHead, createdAt: string, known?: SaltLookup): NextRow {
  // Without salts (`known` absent), the row is written as rows were before person fields were committed (tests of old ledgers).
  const people = known ? saltsFor(entry, known) : undefined;
  const sealed = entry.sealed
    ? { salt: randomBytes(32).toString('hex'), payload: { dice: entry.dice, outcome: entry.outcome, result: entry.result, effects: entry.sealed.effects } }
    : undefined;
  // A sealed roll commits to its payload with people committed, so its reveal still checks once they are erased.
  const sealedCommitted = sealed && people ? committedValue(sealed.payload, people.named, people.saltOf) : undefined;
  const chainedDice = sealed ? [] : entry.dice;
  const chainedOutcome = sealed ? { sealed: true, commitment: sealCommitment(sealed.salt, sealedCommitted ?? sealed.payload) } : entry.outcome;
  // Each JSON value's text and the value that text parses to (what the row holds from now on), in one pass.
  const input = canonicalForm(entry.input);
  const outcome = canonicalForm(chainedOutcome);
  const dice = canonicalJson(chainedDice);
  const fields: ChainedFields = {
    id: entry.id ?? newRollId(),
    guild_id: entry.guildId,
    guild_seq: (head?.guild_seq ?? 0) + 1,
    channel_id: entry.channelId,
    user_id: entry.userId,
    user_name: entry.userName,
    game_id: entry.gameId ?? null,
    turn: entry.gameId ? (entry.turn ?? null) : null,
    phase: entry.gameId ? (entry.phase ?? null) : null,
    game_seq: entry.gameId ? (entry.gameSeq ?? null) : null,
    command: entry.command,
    system: entry.system,
    kind: entry.kind,
    unit: entry.unit ?? null,
    input: input.value,
    dice: chainedDice,
    outcome: outcome.value,
    result: sealed ? null : entry.result,
    parent_id: entry.parentId ?? null,
    once_key: entry.onceKey ?? null,
    created_at: createdAt,
  };
  const texts = { input: input.text, dice, outcome: outcome.text };
  const prev_hash = head?.hash ?? GENESIS_HASH;
  const chained = people
    ? chainedTexts(fields, texts, withChainedInput(committedFields(fields, people.named, people.saltOf, { input: input.text, outcome: outcome.text }), entry))
    : undefined;
  const stored = { ...fields, ...texts, chained: chained?.stored ?? null };
  return {
    fields,
    stored,
    chained: chained?.whole ?? null,
    prev_hash,
    hash: storedRowHash(prev_hash, { ...stored, chained: chained?.whole ?? null }),
    ...(sealed
      ? {
          sealed: {
            salt: sealed.salt,
            payload: canonicalJson(sealed.payload),
            committed: sealedCommitted === undefined ? null : canonicalJson(sealedCommitted),
          },
        }
      : {}),
    newPeople: people?.fresh ?? [],
  };
}

/** A unit name's key in channel_units: ASCII lower case, as SQLite's lower() makes it (migration 005's backfill). */
export const unitKey = (name: string) => name.replace(/[A-Z]/g, (c) => c.toLowerCase());
