// The production entry point: `node dist/main.js` (npm start), with no wrapper between a process
// manager's SIGTERM and node.
import './src/ops/supported-node.js';
import './src/ops/young-generation.js';
// Imported once the two above have run: a static import would load discord.js and the other
// libraries first (an ES module's imports are evaluated before it), and their loading alone grew
// V8's young generation to 16 MiB before its growth could be stopped.
await import('./src/main.js');
