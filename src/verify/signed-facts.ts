/** What a signed body says, read defensively: a body that is not an interaction gives undefined. */
export type SignedFacts = {
  id: string;
  /** Discord's interaction type: 2 a slash command, 3 a component press, 4 an autocomplete keystroke … */
  type: number;
  guild: string | undefined;
  channel: string | undefined;
  user: string | undefined;
  command: string | undefined;
  /** The subcommand group and subcommand asked for, in order (`/roll dice` → ['dice']). */
  path: string[];
  options: Record<string, unknown>;
  customId: string | undefined;
  /** The text of the message a button sits on (its embeds), as Discord sent it. */
  messageText: string | undefined;
};
