import type { APIEmbed, APIEmbedField } from 'discord.js';

/**
 * A reply drawn roughly as Discord's phone app draws it, for the browser tests: the embed with its
 * colour bar, author, title, description, fields (inline ones three to a row) and footer, the
 * buttons under it, and Discord's markdown (bold, italics, strike, inline code, code blocks,
 * mentions, timestamps, links). A test's tool, not Discord's own renderer: sizes follow its
 * stylesheet (14 px text, 16 px titles, 12 px code), fonts are the machine's.
 */

const escapeHtml = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/** A timestamp as Discord's long form writes it in English (`3 December 2026 00:52`): about as wide in every language. */
const stamp = (seconds: string) => {
  const d = new Date(Number(seconds) * 1000);
  return `${d.getUTCDate()} ${d.toLocaleString('en', { month: 'long', timeZone: 'UTC' })} ${d.getUTCFullYear()} ${d.toISOString().slice(11, 16)}`;
};

/** Discord's markdown, the subset the bot writes, as HTML. */
export function markdown(text: string): string {
  const held: string[] = [];
  const hold = (html: string) => `\uE000${held.push(html) - 1}\uE000`;
  let s = text
    .replace(/```(?:\w*\n)?([\s\S]*?)```/g, (_, code: string) => hold(`<pre>${escapeHtml(code.replace(/\n$/, ''))}</pre>`))
    .replace(/`([^`]+)`/g, (_, code: string) => hold(`<code>${escapeHtml(code)}</code>`))
    .replace(/\\([*_~`\\>|#-])/g, (_, c: string) => hold(escapeHtml(c)));
  s = escapeHtml(s)
    .replace(/&lt;@&amp;(\w+)&gt;/g, '<span class="mention">@$1</span>')
    .replace(/&lt;@!?(\w+)&gt;/g, '<span class="mention">@$1</span>')
    .replace(/&lt;#(\w+)&gt;/g, '<span class="mention">#$1</span>')
    .replace(/&lt;t:(\d+)(?::\w)?&gt;/g, (_, t: string) => `<span class="time">${stamp(t)}</span>`)
    .replace(/\[([^\]]+)\]\((https?:[^)\s]+)\)/g, '<a>$1</a>')
    .replace(/\*\*([\s\S]+?)\*\*/g, '<strong>$1</strong>')
    .replace(/\*([^*\n]+?)\*/g, '<em>$1</em>')
    .replace(/~~([\s\S]+?)~~/g, '<s>$1</s>')
    .replaceAll('\n', '<br>');
  return s.replace(/\uE000(\d+)\uE000/g, (_, i: string) => held[Number(i)]!);
}

const STYLE = `
body { margin: 0; width: 400px; background: #313338; color: #dbdee1; font: 14px/18px "DejaVu Sans", sans-serif; }
.msg { padding: 8px 12px 8px 56px; }
.content { margin-bottom: 4px; }
.embed { box-sizing: border-box; max-width: 432px; border-left: 4px solid; border-radius: 4px; background: #2b2d31; padding: 8px 12px 12px 12px; overflow-wrap: break-word; }
.author { font-weight: 600; margin-top: 8px; }
.title { font-size: 16px; line-height: 22px; font-weight: 600; margin-top: 8px; color: #f2f3f5; }
.description { margin-top: 8px; }
.fields { display: grid; grid-template-columns: repeat(12, minmax(0, 1fr)); gap: 8px; margin-top: 8px; }
.field { min-width: 0; }
.field.inline .value { overflow-wrap: normal; word-break: normal; }
.name { font-weight: 600; margin-bottom: 2px; }
.footer { font-size: 12px; line-height: 16px; margin-top: 8px; }
pre { margin: 4px 0 0; padding: 7px; background: #1e1f22; font: 12px/16px "DejaVu Sans Mono", monospace; overflow-x: auto; white-space: pre; }
code { font: 12px "DejaVu Sans Mono", monospace; background: #1e1f22; padding: 0 2px; }
.mention { background: #3c4270; color: #c9cdfb; padding: 0 2px; border-radius: 3px; }
.buttons { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 8px; }
.button { box-sizing: border-box; max-width: 332px; height: 32px; padding: 2px 16px; border-radius: 3px; background: #4e5058; color: #fff; font-weight: 500; white-space: nowrap; overflow: hidden; line-height: 28px; }
`;

/** Fields in Discord's rows: up to three inline fields side by side; any other field alone. */
function fieldRows(fields: readonly APIEmbedField[]): APIEmbedField[][] {
  const rows: APIEmbedField[][] = [];
  for (const f of fields) {
    const last = rows.at(-1);
    if (f.inline && last?.[0]?.inline && last.length < 3) last.push(f);
    else rows.push([f]);
  }
  return rows;
}

const hex = (c: number | undefined) => `#${(c ?? 0x1e1f22).toString(16).padStart(6, '0')}`;

/** One reply (content, embed, buttons) as a page of Discord's phone app. */
export function replyPage(r: { content?: string; embed?: APIEmbed; buttons?: { label?: string }[] }): string {
  const e = r.embed ?? {};
  const fields = fieldRows(e.fields ?? [])
    .flatMap((row) =>
      row.map((f) => {
        // As Discord lays them out: the inline fields of a row share it (one: all of it; three: a third each).
        const span = f.inline ? 12 / row.length : 12;
        const cls = f.inline && row.length > 1 ? 'field inline' : 'field';
        return `<div class="${cls}" style="grid-column: span ${span}"><div class="name">${markdown(f.name)}</div><div class="value">${markdown(f.value)}</div></div>`;
      }),
    )
    .join('');
  const parts = [
    e.author?.name ? `<div class="author">${escapeHtml(e.author.name)}</div>` : '',
    e.title ? `<div class="title">${markdown(e.title)}</div>` : '',
    e.description ? `<div class="description">${markdown(e.description)}</div>` : '',
    fields ? `<div class="fields">${fields}</div>` : '',
    e.footer?.text ? `<div class="footer">${escapeHtml(e.footer.text)}</div>` : '',
  ].join('');
  const buttons = (r.buttons ?? []).map((b) => `<div class="button">${escapeHtml(b.label ?? '')}</div>`).join('');
  return `<!doctype html><html><head><meta charset="utf-8"><style>${STYLE}</style></head><body><div class="msg">${
    r.content ? `<div class="content">${markdown(r.content)}</div>` : ''
  }<div class="embed" style="border-color:${hex(e.color)}">${parts}</div>${buttons ? `<div class="buttons">${buttons}</div>` : ''}</div></body></html>`;
}
