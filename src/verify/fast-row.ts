import { hash } from 'node:crypto';

/**
 * A plain roll's line checked without JSON.parse (the verifier's hot path: most of an export is
 * plain rolls). An export line is a row's fields in a fixed order, its JSON columns written as the
 * canonical text the bot hashed:
 *
 *   {"seq":…,"id":…,…,"unit":…,"input":INPUT,"dice":[…],"outcome":OUTCOME,"result":…,…,"message_id":…}
 *
 * Two anchored patterns read the fields before `"input"` and after OUTCOME, exactly in that order
 * and nothing else between (no key twice, no key added; older exports have `turn`, `phase` and
 * `game_seq` after the hashes, or none). Their strings hold no escape and their
 * numbers no leading zero, so each value's text is already its canonical text. The `,"result":`
 * that ends OUTCOME is the last in the line (only those scalars follow it); INPUT, the dice and
 * OUTCOME are taken as they stand. The canonical row is put together from those texts, in sorted
 * key order; when its SHA-256 is the row's hash, the row holds, for the hash commits to exactly
 * those bytes. Any other line (a row of a game, a sealed roll, an escape in a name, another layout,
 * a hash that does not match) is undefined here and goes the full way, JSON.parse and
 * canonicalize, which decides. INPUT and OUTCOME are not parsed here: bytes whose hash matches are
 * the bytes the bot wrote (canonical JSON), or a forger hashed them, which the next row's link or
 * a pinned head catches as it catches any forged row.
 */
export type FastRow = { id: string; guild_id: string; guild_seq: number; channel_id: string; system: string; prev_hash: string; hash: string };

/** A JSON string with nothing escaped (so its text is canonical); `N` for a canonical whole number. */
const S = '"[^"\\\\\\x00-\\x1f]*"';
const S_OR_NULL = `(?:${S}|null)`;
const N = '(?:0|[1-9]\\d*)';
const HEX64 = '"[0-9a-f]{64}"';

const HEAD = new RegExp(
  `^\\{"seq":${N},"id":(${S}),"guild_id":(${S}),"guild_seq":(${N}),"channel_id":(${S}),"user_id":(${S}),"user_name":(${S}),` +
    `"game_id":null,(?:"turn":null,"phase":null,"game_seq":null,)?"command":(${S}),"system":(${S}),"kind":"roll","unit":(${S_OR_NULL}),"input":`,
);
const TAIL = new RegExp(
  `^,"result":(${S_OR_NULL}),"parent_id":(${S_OR_NULL}),"once_key":(${S_OR_NULL}),"created_at":(${S}),"prev_hash":(${HEX64}),"hash":(${HEX64}),(?:"turn":null,"phase":null,"game_seq":null,)?"message_id":${S_OR_NULL}\\}$`,
);
const DICE = ',"dice":[';
const OUTCOME = ',"outcome":';
const DICE_TEXT = new RegExp(`^\\[(?:${N}(?:,${N})*)?\\]$`);

const unquote = (s: string) => s.slice(1, -1);

export function fastRow(line: string): FastRow | undefined {
  const head = HEAD.exec(line);
  const j = line.lastIndexOf(',"result":');
  if (!head || j < 0) return undefined;
  // Matched on the tail alone: a sticky match from j scans far slower.
  const tail = TAIL.exec(line.slice(j));
  if (!tail) return undefined;
  const [, id, guild, seq, channel, user, name, command, system, unit] = head as unknown as string[];
  const [, result, parent, onceKey, created, prev, rowHash] = tail as unknown as string[];
  const mid = line.slice(head[0].length, j);
  const d = mid.indexOf(DICE);
  const e = mid.indexOf(']', d);
  if (d < 0 || !mid.startsWith(OUTCOME, e + 1)) return undefined;
  const dice = mid.slice(d + DICE.length - 1, e + 1);
  const outcome = mid.slice(e + 1 + OUTCOME.length);
  if (!DICE_TEXT.test(dice) || outcome.includes('"sealed":true')) return undefined;
  // The canonical row: its chained keys in sorted order (chain.ts hashes the same layout).
  const body =
    `{"channel_id":${channel},"command":${command},"created_at":${created},"dice":${dice},"game_id":null,"guild_id":${guild},` +
    `"guild_seq":${seq},"id":${id},"input":${mid.slice(0, d)},"kind":"roll","once_key":${onceKey},"outcome":${outcome},` +
    `"parent_id":${parent},"result":${result},"system":${system},"unit":${unit},"user_id":${user},"user_name":${name}}`;
  const prevHash = unquote(prev!);
  const ownHash = unquote(rowHash!);
  if (hash('sha256', prevHash + body) !== ownHash) return undefined;
  return {
    id: unquote(id!),
    guild_id: unquote(guild!),
    guild_seq: Number(seq),
    channel_id: unquote(channel!),
    system: unquote(system!),
    prev_hash: prevHash,
    hash: ownHash,
  };
}
