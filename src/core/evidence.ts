import { deflateRawSync } from 'node:zlib';
import type { LedgerTx } from '../ledger/transaction.js';
import { evidenceDigest, signedFacts, type RowEvidence, type SignedFacts, type SignedRequest } from '../verify/evidence.js';
import { unaskedOf } from '../verify/evidence-asks.js';

/**
 * Discord's signed request behind an interaction (HTTP mode), as the transport hands it over: the
 * bytes, and the application key it was checked under (hex), which a game's first row commits.
 */
export type RequestEvidence = SignedRequest & { key: string };

/**
 * What the rows of one interaction carry of its request: its commitment, and the bytes to keep.
 * Both are worked out when a first row is written: a command that writes nothing hashes nothing.
 */
export type InteractionEvidence = {
  key: string;
  request: SignedRequest;
  interactionId: string;
  written?: { commits: RowEvidence; deflated: Buffer; facts: SignedFacts | undefined };
};

/** The evidence of one interaction, for its context (undefined without a signed request or an id). */
export function interactionEvidence(interactionId: string | undefined, e: RequestEvidence | undefined): InteractionEvidence | undefined {
  if (!interactionId || !e) return undefined;
  return { key: e.key, request: { timestamp: e.timestamp, signature: e.signature, body: e.body }, interactionId };
}

function written(ev: InteractionEvidence): NonNullable<InteractionEvidence['written']> {
  if (ev.written) return ev.written;
  const body = Buffer.from(ev.request.body, 'base64');
  ev.written = {
    commits: { interaction: ev.interactionId, sha256: evidenceDigest(ev.request.timestamp, body) },
    deflated: deflateRawSync(body),
    facts: signedFacts(body),
  };
  return ev.written;
}

/**
 * A row's input with its interaction's commitment added, and the request kept beside the chain in
 * the same transaction (once per interaction; a rolled-back transaction keeps nothing). The
 * commitment names the row's options the request did not carry and that are not their command's
 * declared defaults (a roster's value, a pack's default): verifiers name each as the bot's word,
 * and fail an option that is neither asked, declared, nor named here.
 */
export async function withEvidence(tx: LedgerTx, guildId: string, ev: InteractionEvidence | undefined, input: unknown): Promise<unknown> {
  if (!ev || !input || typeof input !== 'object' || Array.isArray(input)) return input;
  const { commits, deflated, facts } = written(ev);
  await tx.history.keepEvidence({
    interaction_id: commits.interaction,
    guild_id: guildId,
    timestamp: ev.request.timestamp,
    signature: ev.request.signature,
    body: deflated,
    created_at: tx.timestamp(),
  });
  const unasked = facts ? unaskedOf(facts, input as Record<string, unknown>) : [];
  return { ...(input as object), evidence: unasked.length ? { ...commits, unasked } : commits };
}
