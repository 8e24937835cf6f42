import {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  InteractionContextType,
  type APIApplicationCommandBasicOption,
  type APIApplicationCommandOption,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import { isGroup, type AnyCommand } from '../core/command.js';
import type { OptionMap } from '../core/options.js';

function slashOptions(map: OptionMap): APIApplicationCommandBasicOption[] {
  const options = Object.entries(map).map(([name, spec]) => spec.toSlash(name));
  // Discord wants required options first and rejects definitions that do not.
  return options.sort((a, b) => Number(b.required ?? false) - Number(a.required ?? false));
}

/** The slash-command JSON Discord registers, derived from each command's option declarations. */
export function commandDefinitions(commands: readonly AnyCommand[]): RESTPostAPIChatInputApplicationCommandsJSONBody[] {
  return commands.map((c) => {
    const options: APIApplicationCommandOption[] = isGroup(c)
      ? Object.entries(c.subcommands).map(([name, sub]) => ({
          type: ApplicationCommandOptionType.Subcommand,
          name,
          description: sub.description,
          options: slashOptions(sub.options),
        }))
      : slashOptions(c.options);
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
