import { deflateRawSync } from 'node:zlib';
import type { KeptEvidence } from '../ledger/contract.js';
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

type Written = NonNullable<InteractionEvidence['written']>;

/** Evidence worked out before its first row is written, by the request it came with. */
const ahead = new WeakMap<SignedRequest, Written>();

/** The evidence of one interaction, for its context (undefined without a signed request or an id). */
export function interactionEvidence(interactionId: string | undefined, e: RequestEvidence | undefined): InteractionEvidence | undefined {
  if (!interactionId || !e) return undefined;
  const early = ahead.get(e);
  return {
    key: e.key,
    request: { timestamp: e.timestamp, signature: e.signature, body: e.body },
    interactionId,
    ...(early?.commits.interaction === interactionId ? { written: early } : {}),
  };
}

function workedOut(interactionId: string, request: SignedRequest): Written {
  const body = Buffer.from(request.body, 'base64');
  return {
    commits: { interaction: interactionId, sha256: evidenceDigest(request.timestamp, body) },
    deflated: deflateRawSync(body),
    facts: signedFacts(body),
  };
}

/**
 * Works a request's evidence out now, for rows written later from the same request object: a bound
 * roll's, while it waits for its round, so that the round's many rolls do not all deflate then.
 */
export function workOutEvidence(interactionId: string, e: RequestEvidence): void {
  ahead.set(e, workedOut(interactionId, e));
}

function written(ev: InteractionEvidence): Written {
  ev.written ??= workedOut(ev.interactionId, ev.request);
  return ev.written;
}

/**
 * A row's input with its interaction's commitment added, and the request to keep beside the chain
 * in the row's transaction (the append keeps it, once per interaction; a rolled-back transaction
 * keeps nothing). The commitment names the row's options the request did not carry and that are
 * not their command's declared defaults (a roster's value, a pack's default): verifiers name each
 * as the bot's word, and fail an option that is neither asked, declared, nor named here.
 */
export function withEvidence(
  tx: Pick<LedgerTx, 'timestamp'>,
  guildId: string,
  ev: InteractionEvidence | undefined,
  input: unknown,
): { input: unknown; kept?: KeptEvidence } {
  if (!ev || !input || typeof input !== 'object' || Array.isArray(input)) return { input };
  const { commits, deflated, facts } = written(ev);
  const kept = {
    interaction_id: commits.interaction,
    guild_id: guildId,
    timestamp: ev.request.timestamp,
    signature: ev.request.signature,
    body: deflated,
    created_at: tx.timestamp(),
  };
  const unasked = facts ? unaskedOf(facts, input as Record<string, unknown>) : [];
  return { input: { ...(input as object), evidence: unasked.length ? { ...commits, unasked } : commits }, kept };
}
