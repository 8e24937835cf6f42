/**
 * One side of the memory benchmark, in its own process: `bot` is the Morale Officer process as
 * `npm start` runs it (dist/main.js, the bundle); `bare` is a plain discord.js client with the
 * same intent. Each connects to the fake Discord, waits for ready, settles, and prints its
 * resident memory. Plain JavaScript run by node alone, as production runs: tsx's loader would
 * turn source maps on and hold every loaded module's map (3 MiB for the bundle's alone).
 */
const [mode, apiBase, token, dbPath] = process.argv.slice(2);

async function main() {
  let ready;
  if (mode === 'bot') {
    // Configured as a self-hoster would, through the environment; its own log line says when it serves.
    Object.assign(process.env, { DISCORD_TOKEN: token, DISCORD_API_BASE: apiBase, DATABASE_PATH: dbPath, LOG_LEVEL: 'info' });
    ready = new Promise((resolve) => {
      const write = process.stderr.write.bind(process.stderr);
      process.stderr.write = (chunk, ...rest) => {
        if (String(chunk).includes('connected to Discord')) resolve();
        return write(chunk, ...rest);
      };
    });
    await import(new URL('../dist/main.js', import.meta.url).href);
  } else {
    // Loaded here, not at the top: the bot's side must load nothing before dist/main.js does, as
    // under npm start (discord.js loaded first grew the young generation before main.js could stop it).
    const { Client, Events, GatewayIntentBits } = await import('discord.js');
    const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: apiBase } });
    ready = new Promise((resolve) => client.once(Events.ClientReady, () => resolve()));
    await client.login(token);
  }
  await ready;
  await new Promise((r) => setTimeout(r, 1500));
  globalThis.gc?.();
  await new Promise((r) => setTimeout(r, 200));
  if (process.env.SNAP) (await import('node:v8')).writeHeapSnapshot(process.env.SNAP);
  // The heap and the rest apart: where a difference from the bare client lies.
  const { rss, heapTotal, heapUsed, external } = process.memoryUsage();
  process.stdout.write(`${JSON.stringify({ rss, heapTotal, heapUsed, external })}\n`);
  process.exit(0);
}

void main();
