// The built verifier's verifyFile (what npm run verify runs) on one export, reporting its verdict and the process's peak memory, worker threads included.
const { verifyFile } = await import('../dist/src/verify/read-file.js');
const report = await verifyFile(process.argv[2]);
process.stdout.write(JSON.stringify({ ok: report.ok, rss: process.resourceUsage().maxRSS }));
