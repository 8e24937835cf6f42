import { loadConfigOrExit } from '../config.js';
import { healthFileFor, unhealthy } from './heartbeat.js';

/** npm run health: exit 0 only when the running bot is connected and its ledger writable (Docker HEALTHCHECK, systemd). */
const config = loadConfigOrExit();
const problem = unhealthy(healthFileFor(config.databasePath, process.env.HEALTH_FILE));
process.stdout.write(problem ? `unhealthy: ${problem}\n` : 'healthy: connected to Discord, ledger writable\n');
process.exit(problem ? 1 : 0);
