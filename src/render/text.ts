import type { APIEmbed } from 'discord.js';
import type { Button } from './embed.js';

/** Discord markdown that reads as noise in a terminal. */
const plain = (s: string) =>
  s
    .replace(/(?<!\\)(\*\*|__|`)/g, '')
    .replace(/(^|\s)\*([^*\n]+)\*/g, '$1$2')
    // Discord timestamps as UTC, and user text without the escapes that keep it literal on Discord.
    .replace(/<t:(\d+):[a-zA-Z]>/g, (_, t: string) => `${new Date(Number(t) * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`)
    .replace(/\\([\\*_`~|[\]()#>.-])/g, '$1');

const indent = (s: string, by = '  ') =>
  s
    .split('\n')
    .map((l) => by + l)
    .join('\n');

/** An embed (and its buttons) as readable terminal text, for the interactive console. */
export function embedToText(embed: APIEmbed, buttons: Button[] = [], ephemeral = false): string {
  const out: string[] = [];
  const title = embed.title ? plain(embed.title) : '';
  out.push(`== ${title}${embed.author ? `  (${embed.author.name})` : ''}${ephemeral ? '  [only you can see this]' : ''}`);
  if (embed.description) out.push(indent(plain(embed.description)));
  for (const f of embed.fields ?? []) {
    const value = plain(f.value);
    out.push(value.includes('\n') ? `  ${plain(f.name)}:\n${indent(value, '    ')}` : `  ${plain(f.name)}: ${value}`);
  }
  if (embed.footer) out.push(`  -- ${embed.footer.text}`);
  for (const b of buttons) out.push(`  [${b.label}]  type: press ${b.custom_id}`);
  return out.join('\n');
}
