import { refuse } from './user-error.js';
import { userText } from '../render/embed.js';

/** A file attached to a command, as the transport saw it: Discord's CDN address, or (the console) its text. */
export type AttachedFile = { name: string; size: number; url?: string; text?: string };

/** Where Discord serves attachments: the only hosts a file is fetched from (or exact origins, for a test's server). */
export const DISCORD_CDN_HOSTS = ['cdn.discordapp.com', 'media.discordapp.net'];

/**
 * The text of an attached file, at most `maxBytes`: refused, saying why, when it is larger, is not
 * UTF-8 text, or is not on Discord's CDN (a request never makes the bot fetch another address).
 */
export async function fileText(
  file: AttachedFile | undefined,
  maxBytes: number,
  hosts: readonly string[] = DISCORD_CDN_HOSTS,
): Promise<{ name: string; text: string }> {
  if (!file) return refuse('fileMissing');
  if (file.size > maxBytes) refuse('fileTooBig', { file: userText(file.name), size: file.size, max: maxBytes });
  if (file.text !== undefined) return { name: file.name, text: file.text };
  const url = new URL(file.url ?? '');
  // A host by name over HTTPS, or an exact origin (a test's local server).
  if (!((url.protocol === 'https:' && hosts.includes(url.hostname)) || hosts.includes(url.origin))) refuse('fileNotDiscords', { file: userText(file.name) });
  const res = await fetch(url, { signal: AbortSignal.timeout(10_000), redirect: 'error' });
  if (!res.ok) refuse('fileUnreadable', { file: userText(file.name), status: String(res.status) });
  const bytes = Buffer.from(await res.arrayBuffer());
  if (bytes.length > maxBytes) refuse('fileTooBig', { file: userText(file.name), size: bytes.length, max: maxBytes });
  try {
    return { name: file.name, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return refuse('fileNotText', { file: userText(file.name) });
  }
}
