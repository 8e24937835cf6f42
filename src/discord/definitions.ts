import { ApplicationCommandType, InteractionContextType, type RESTPostAPIChatInputApplicationCommandsJSONBody } from 'discord.js';
import type { AnyCommand } from '../core/command.js';
import type { OptionMap } from '../core/options.js';

/** The slash-command JSON Discord registers, derived from each command's option declarations. */
export function commandDefinitions(commands: readonly AnyCommand[]): RESTPostAPIChatInputApplicationCommandsJSONBody[] {
  return commands.map((c) => {
    const options = Object.entries(c.options as OptionMap).map(([name, spec]) => spec.toSlash(name));
    // Discord lists required options first and rejects definitions that do not.
    options.sort((a, b) => Number(b.required ?? false) - Number(a.required ?? false));
    return {
      type: ApplicationCommandType.ChatInput,
      name: c.name,
      description: c.description,
      options,
      // Rolls are recorded per server: the commands are offered in servers only.
      contexts: [InteractionContextType.Guild],
    };
  });
}
