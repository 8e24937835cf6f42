import { REST } from '@discordjs/rest';
import { Routes, type RESTPutAPIApplicationCommandsJSONBody } from 'discord.js';
import { COMMANDS } from '../../commands/index.js';
import { commandDefinitions } from './definitions.js';

export type Registration = { token: string; applicationId: string; guildId?: string | undefined; apiBase?: string | undefined };

/** Registers every command: to the guild when one is named (instant, for development), else globally. Returns how many. */
export async function registerCommands(r: Registration): Promise<number> {
  const body: RESTPutAPIApplicationCommandsJSONBody = commandDefinitions(COMMANDS);
  const rest = new REST(r.apiBase ? { api: r.apiBase } : {}).setToken(r.token);
  const route = r.guildId ? Routes.applicationGuildCommands(r.applicationId, r.guildId) : Routes.applicationCommands(r.applicationId);
  return ((await rest.put(route, { body })) as unknown[]).length;
}

/** The sentence an admin reads once the commands are registered. */
export const registeredLine = (count: number, guildId: string | undefined) =>
  `Registered ${count} commands ${guildId ? `to server ${guildId}` : 'globally (may take up to an hour to appear)'}.`;
