import './supported-node.js';
import { openStore } from '../ledger/open-store.js';
import { loadConfigOrExit } from '../config.js';
import { keyFileFor, loadOrCreateKeys, registerKeys, rotateKeys } from './signing-key.js';
import { exitOnDatabaseRefusal } from './database-refusal.js';

/**
 * npm run keys -- show | rotate: the bot's receipt keys. `rotate` makes a new key in use from now
 * and retires the old one (kept in the file and the ledger, so receipts it signed still verify:
 * every export lists every key with when it was in use). Restart the bot afterwards to sign with it.
 */
const [action, ...rest] = process.argv.slice(2);
if ((action !== 'show' && action !== 'rotate') || rest.length) {
  process.stderr.write('usage: npm run keys -- show | rotate\n');
  process.exit(2);
}
process.umask(0o077);
const config = loadConfigOrExit();
const file = keyFileFor(config.dataDir, config.signingKeyFile);
const keys = action === 'rotate' ? rotateKeys(file) : loadOrCreateKeys(file);
const store = await openStore(config).catch((err: unknown) => {
  exitOnDatabaseRefusal(err, config.databaseUrl);
  throw err;
});
try {
  await registerKeys(store, keys.records);
} finally {
  await store.close();
}
for (const k of keys.records)
  process.stdout.write(
    `${k.valid_until ? 'retired' : 'in use '} ${k.fingerprint} ${k.public_key} from ${k.valid_from}${k.valid_until ? ` to ${k.valid_until}` : ''}\n`,
  );
if (action === 'rotate') process.stdout.write(`rotated: ${keys.signer.fingerprint} is the key in use; restart the bot to sign with it.\n`);
