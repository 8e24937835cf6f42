// npm run test:busy: README's test command run while CPU-bound processes (one a core, or BUSY_PROCS)
// keep every core busy, as CI and reviewers' machines often are. The busy processes end with the
// suite; the exit code is the suite's. Arguments after `--` go to vitest.
import { spawn } from 'node:child_process';
import os from 'node:os';

const count = Number(process.env.BUSY_PROCS ?? os.availableParallelism());
// A hot loop in a child process of its own: nothing of the suite shares its event loop.
const busy = Array.from({ length: count }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
const stopBusy = () => {
  for (const b of busy) b.kill('SIGKILL');
};
process.on('exit', stopBusy);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

const started = Date.now();
process.stderr.write(`test:busy: ${count} CPU-bound processes beside the suite on ${os.availableParallelism()} cores\n`);
const suite = spawn('npx', ['vitest', 'run', ...process.argv.slice(2)], { stdio: 'inherit' });
suite.on('exit', (code, signal) => {
  stopBusy();
  process.stderr.write(`test:busy: the suite ${code === 0 ? 'passed' : 'failed'} in ${Math.round((Date.now() - started) / 1000)} s\n`);
  process.exit(code ?? (signal ? 1 : 0));
});
