import type { Logger } from '../log.js';
import { publicChainName } from './chain.js';
import { chainOf } from './chain-config.js';
import { relaySource, type BeaconSource } from './relay.js';

/**
 * The beacon a process reads, from BEACON_CHAIN and BEACON_URLS: `fallback` when BEACON_CHAIN is
 * unset (the bot: quicknet; the console and the tests: off). Throws BeaconConfigError on a bad file.
 */
export function beaconFor(setting: string | undefined, fallback: 'quicknet' | 'off', urls: readonly string[], log?: Logger): BeaconSource | undefined {
  const chain = chainOf(setting ?? fallback);
  if (!chain) return undefined;
  const source = relaySource(chain, { urls, ...(log ? { log } : {}) });
  log?.info('beacon', {
    chain: publicChainName(chain) ?? 'a private chain (from BEACON_CHAIN)',
    hash: chain.hash,
    relays: urls.length,
  });
  return source;
}
