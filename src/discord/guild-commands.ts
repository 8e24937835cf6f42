import type { REST } from '@discordjs/rest';
import { Routes } from 'discord.js';
import type { AnyCommand, GuildCommands } from '../core/command.js';
import { commandDefinitions } from './definitions.js';

/**
 * A rule pack's command registered in its own server only (the built-in commands are untouched):
 * created, or replaced by name, with one POST; removed by its id. The application id is read from
 * the token once (GET /applications/@me) when it is not configured.
 */
export function guildCommandsVia(rest: REST, applicationId?: string): GuildCommands {
  let app: Promise<string> | undefined = applicationId ? Promise.resolve(applicationId) : undefined;
  const appId = () => {
    app ??= (rest.get(Routes.currentApplication()) as Promise<{ id: string }>).then((a) => a.id);
    // A failed read is tried again next time, not remembered.
    app.catch(() => {
      app = undefined;
    });
    return app;
  };
  return {
    async upsert(guildId: string, command: AnyCommand) {
      await rest.post(Routes.applicationGuildCommands(await appId(), guildId), { body: commandDefinitions([command])[0] });
    },
    async remove(guildId: string, name: string) {
      const id = await appId();
      const listed = (await rest.get(Routes.applicationGuildCommands(id, guildId))) as { id: string; name: string }[];
      const found = listed.find((c) => c.name === name);
      if (found) await rest.delete(Routes.applicationGuildCommand(id, guildId, found.id));
    },
  };
}
