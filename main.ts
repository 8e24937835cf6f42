// The production entry point: `node dist/main.js` (npm start), with no wrapper between a process
// manager's SIGTERM and node.
import './src/ops/supported-node.js';
import './src/ops/young-generation.js';
import './src/main.js';
