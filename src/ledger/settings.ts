import type { Db } from './database.js';

export type GuildSettings = { gm_role_id: string | null; gm_channel_id: string | null; log_channel_id: string | null };
/** A server that has set nothing. */
export const NO_SETTINGS: GuildSettings = { gm_role_id: null, gm_channel_id: null, log_channel_id: null };

/** The settings' columns, read alike by both backends. */
export const SETTINGS_SELECT = 'SELECT gm_role_id, gm_channel_id, log_channel_id FROM guild_config WHERE guild_id = ?';
export const SET_LOG_CHANNEL_SQL =
  'INSERT INTO guild_config (guild_id, log_channel_id) VALUES (?, ?) ON CONFLICT (guild_id) DO UPDATE SET log_channel_id = excluded.log_channel_id';

export interface SettingsReads {
  get(guildId: string): GuildSettings;
}

export interface SettingsWrites {
  setGmRole(guildId: string, roleId: string | null): void;
  setGmChannel(guildId: string, channelId: string | null): void;
  setLogChannel(guildId: string, channelId: string | null): void;
}

/** Per-server settings a GM sets with /config. */
export class Settings implements SettingsReads, SettingsWrites {
  private readonly q;
  constructor(db: Db) {
    this.q = {
      get: db.prepare(SETTINGS_SELECT),
      setLog: db.prepare(SET_LOG_CHANNEL_SQL),
      setRole: db.prepare(
        'INSERT INTO guild_config (guild_id, gm_role_id) VALUES (?, ?) ON CONFLICT (guild_id) DO UPDATE SET gm_role_id = excluded.gm_role_id',
      ),
      setChannel: db.prepare(
        'INSERT INTO guild_config (guild_id, gm_channel_id) VALUES (?, ?) ON CONFLICT (guild_id) DO UPDATE SET gm_channel_id = excluded.gm_channel_id',
      ),
    };
  }

  get(guildId: string): GuildSettings {
    return (this.q.get.get(guildId) as GuildSettings | undefined) ?? { ...NO_SETTINGS };
  }

  setGmRole(guildId: string, roleId: string | null): void {
    this.q.setRole.run(guildId, roleId);
  }

  setGmChannel(guildId: string, channelId: string | null): void {
    this.q.setChannel.run(guildId, channelId);
  }

  setLogChannel(guildId: string, channelId: string | null): void {
    this.q.setLog.run(guildId, channelId);
  }
}
