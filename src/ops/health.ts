import './supported-node.js';
import { loadConfigOrExit } from '../config.js';
import { healthFileFor, unhealthy } from './heartbeat.js';

/** npm run health: exit 0 only when the running bot serves interactions and its ledger is writable (Docker HEALTHCHECK, systemd). */
const config = loadConfigOrExit();
const problem = unhealthy(healthFileFor(config.dataDir, config.healthFile));
process.stdout.write(problem ? `unhealthy: ${problem}\n` : 'healthy: serving interactions, ledger writable\n');
process.exit(problem ? 1 : 0);
