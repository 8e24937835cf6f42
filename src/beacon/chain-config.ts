import fs from 'node:fs';
import { z } from 'zod';
import { publicChainOf, SUPPORTED_SCHEME, QUICKNET, type BeaconChain } from './chain.js';

const hex = (bytes: number) => z.string().regex(new RegExp(`^[0-9a-f]{${bytes * 2}}$`), `${bytes * 2} lowercase hex digits`);

/** drand's `/info` JSON, as a private or test chain publishes it. */
const chainInfo = z.object({
  public_key: hex(96),
  period: z.number().int().min(1).max(3600),
  genesis_time: z.number().int().min(0),
  hash: hex(32),
  schemeID: z.literal(SUPPORTED_SCHEME, { message: `only ${SUPPORTED_SCHEME} chains are supported` }),
});

export class BeaconConfigError extends Error {}

/** A chain-info file's chain, or why it is not one. */
export function parseChainInfo(text: string, where: string): BeaconChain {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new BeaconConfigError(`${where} is not JSON: it must be a drand chain info (the relay's /info)`);
  }
  const parsed = chainInfo.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new BeaconConfigError(`${where}: ${issue.path.join('.') || 'the file'}: ${issue.message}`);
  }
  const { schemeID, ...rest } = parsed.data;
  return { ...rest, scheme: schemeID };
}

/** BEACON_CHAIN: quicknet, off, or the path of a chain-info file. */
export function chainOf(setting: string): BeaconChain | undefined {
  const value = setting.trim();
  if (value === 'off') return undefined;
  if (value === 'quicknet') return QUICKNET;
  let text: string;
  try {
    text = fs.readFileSync(value, 'utf8');
  } catch {
    throw new BeaconConfigError(`BEACON_CHAIN: ${value} is neither quicknet, off nor a readable chain-info file`);
  }
  const chain = parseChainInfo(text, `BEACON_CHAIN ${value}`);
  // A file borrowing a public chain's hash or key with another field its own: every verifier would
  // fail its games, so the bot never plays one.
  const borrowed = publicChainOf(chain);
  if (borrowed?.differs.length)
    throw new BeaconConfigError(
      `BEACON_CHAIN ${value}: its ${borrowed.same.join(', ')} ${borrowed.same.length === 1 ? 'is' : 'are'} ${borrowed.name}'s but not its ${borrowed.differs.join(', ')}: use BEACON_CHAIN=quicknet for ${borrowed.name}, or a chain of your own whose hash and key are its own`,
    );
  return chain;
}
