import { articleOf } from '../../src/util/text.js';
import type { Context, Reply } from '../../src/core/command.js';
import { message } from '../../src/core/replies.js';
import { buttonParent, findRoll } from '../../src/core/review.js';
import { refuse } from '../../src/core/user-error.js';
import { noticeEmbed } from '../../src/render/embed.js';
import { record, recordedOptions } from '../../src/core/record.js';
import { changeOutcome } from '../../src/core/roster-unit.js';
import { receiptPayload, receiptText, type ReceiptFields, type Signer } from '../../src/verify/receipt.js';
import { command } from '../../src/i18n/said.js';
import { say } from '../../src/i18n/reader.js';

/** The row kinds a receipt is for: what a player rolled or had ruled, not a GM's mark on it. */
const RECEIPTED = new Set(['roll', 'reroll', 'check']);

/** How the command was typed, from its recorded options: `/rally disorder:2 unit:"1st Foot"`. */
export function commandLine(command: string, input: unknown): string {
  const opts = Object.entries((input ?? {}) as Record<string, unknown>)
    .filter(([k, v]) => v !== null && v !== undefined && k !== 'sealed')
    .map(([k, v]) => {
      const text = typeof v === 'string' ? v : JSON.stringify(v);
      return `${k}:${typeof v === 'string' && /[\s"]/.test(v) ? JSON.stringify(v) : text}`;
    });
  return [`/${command}`, ...opts].join(' ');
}

/**
 * The key a receipt is signed with, on this guild's chain before its first receipt: verifiers trust
 * a receipt's key only when its own guild's chain records it (or it is given out of band), never a
 * key line that merely sits in an export. Once per guild and key (its once-key).
 */
async function chainKey(ctx: Context, signer: Signer): Promise<void> {
  const once = `signing_key:${ctx.actor.guildId}:${signer.fingerprint}`;
  await ctx.services.ledger.transaction(async (tx) => {
    if (await tx.onceKeyTaken(once)) return;
    await record(
      tx,
      ctx,
      { command: 'keys', kind: 'key', input: { fingerprint: signer.fingerprint, public_key: signer.publicKey }, onceKey: once },
      changeOutcome('unknown', 'key_chained', 'Receipt key on the chain', `Receipts of this server are signed with key ${signer.fingerprint} from now on.`),
    );
  }, ctx.actor.guildId);
}

/**
 * /roll receipt: the roll's signed receipt, a short block to paste into an e-mail or a VASL chat,
 * which anyone checks against the bot's public key without the ledger. Only the
 * requester sees it; a voided roll's receipt says so.
 */
export async function receiptReply(ctx: Context, id: string): Promise<Reply> {
  const { signer, ledger } = ctx.services;
  if (!signer) refuse('noReceiptKey');
  // The roll as its buttons see it: revealed (a sealed one has none before its reveal, for GMs too), with its void.
  const stored = await findRoll(ledger, ctx, id);
  if (!RECEIPTED.has(stored.kind)) refuse('receiptNotARoll', { id: stored.id, article: articleOf(stored.kind), kind: stored.kind });
  const parent = await buttonParent(ledger, ctx, stored.id);
  if (!parent) refuse('receiptSealed', { id: stored.id, reveal: command('reveal') });
  const { roll: row, voided } = parent;
  await chainKey(ctx, signer);
  const game = row.game_id ? await ledger.roster.game(ctx.actor.guildId, row.game_id) : undefined;
  const fields: ReceiptFields = {
    v: 1,
    roll: row.id,
    guild: row.guild_id,
    seq: row.guild_seq,
    game: row.game_id,
    game_name: game?.name ?? null,
    turn: row.turn ?? null,
    phase: row.phase ?? null,
    player: row.user_name,
    player_id: row.user_id,
    command: commandLine(row.command, recordedOptions(row)),
    dice: row.dice,
    result: row.result,
    voided: voided ?? null,
    hash: row.hash,
    at: row.created_at,
    signed_at: ledger.timestamp(),
    key: signer.fingerprint,
  };
  const text = receiptText(fields, signer.sign(receiptPayload(fields)));
  return message(
    noticeEmbed(
      say('receipt.title', { id: row.id }),
      `\`\`\`\n${text}\n\`\`\`\n${say('receipt.how', { verifyKey: command('verify'), export: command('export') })}`,
      voided !== undefined ? 'bad' : 'neutral',
    ),
    true,
  );
}
