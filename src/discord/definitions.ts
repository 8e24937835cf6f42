import {
  ApplicationCommandOptionType,
  ApplicationIntegrationType,
  ApplicationCommandType,
  InteractionContextType,
  type APIApplicationCommandBasicOption,
  type APIApplicationCommandOption,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import { type AccessDecl, defaultMemberPermissions, EVERYONE } from '../core/access.js';
import { isGroup, type AnyCommand } from '../core/command.js';
import type { OptionMap } from '../core/options.js';
import { localizations } from '../i18n/i18n.js';

/** A command's, subcommand's or option's name and description, with their German and French. */
const localized = <T extends { name: string; description: string }>(o: T): T => ({
  ...o,
  name_localizations: localizations('names', o.name),
  description_localizations: localizations('descriptions', o.description),
});

function slashOptions(map: OptionMap): APIApplicationCommandBasicOption[] {
  const options = Object.entries(map).map(([name, spec]) => localized(spec.toSlash(name)));
  // Discord wants required options first and rejects definitions that do not.
  return options.sort((a, b) => Number(b.required ?? false) - Number(a.required ?? false));
}

/** A group is as open as its most open subcommand: Discord sets permissions per command, not per subcommand. */
function access(c: AnyCommand): AccessDecl {
  if (!isGroup(c)) return c.access;
  const subs = Object.values(c.subcommands).map((s) => s.access);
  return subs.every((a) => typeof a !== 'function' && a.who === 'gm') ? subs[0]! : EVERYONE;
}

/** The slash-command JSON Discord registers, derived from each command's option declarations. */
export function commandDefinitions(commands: readonly AnyCommand[]): RESTPostAPIChatInputApplicationCommandsJSONBody[] {
  return commands.map((c) => {
    const options: APIApplicationCommandOption[] = isGroup(c)
      ? Object.entries(c.subcommands).map(([name, sub]) =>
          localized({
            type: ApplicationCommandOptionType.Subcommand as const,
            name,
            description: sub.description,
            options: slashOptions(sub.options),
          }),
        )
      : slashOptions(c.options);
    return {
      type: ApplicationCommandType.ChatInput,
      ...localized({ name: c.name, description: c.description }),
      options,
      // Rolls are recorded per server: the commands are offered in servers only, installed by a server.
      contexts: [InteractionContextType.Guild],
      integration_types: [ApplicationIntegrationType.GuildInstall],
      // GM-only commands are hidden from members without Manage Server unless a server opens them.
      default_member_permissions: defaultMemberPermissions(access(c)),
    };
  });
}
