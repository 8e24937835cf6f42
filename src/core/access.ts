import { refuse } from './user-error.js';
import { command, said, type Said } from '../i18n/said.js';

/**
 * Who may run a command, declared once beside it. The router checks it before `run`, and
 * deploy-commands derives Discord's `default_member_permissions` from it; resource checks (the
 * roller of a roll, the owner of a unit, the starter of a game) go through `assertOwnerOrGm`.
 */
/** What access needs of a request: who is acting (kept structural so access.ts imports nothing of the command contract). */
type Acting = { actor: { isGm: boolean; userId: string } };

export type Access = { who: 'everyone' } | { who: 'gm'; to: Said; message?: Said };
/** Static, or decided by the options (/history scope:server is for GMs, scope:channel for all). */
export type AccessDecl<I = any> = Access | ((input: I) => Access);

export const EVERYONE: Access = { who: 'everyone' };
/** GM only: `to` finishes the refusal, "Only a GM … can <to>" (or `message` says it all). */
export const gmOnly = (to: Said, message?: Said): Access => ({ who: 'gm', to, ...(message ? { message } : {}) });

export const GM_ONLY = (what: Said): Said => said('gmOnly', { config: command('config gm-role'), what });

/** Discord's Manage Server permission bit: what a GM has by default (the GM role is the bot's own). */
export const MANAGE_GUILD = 1n << 5n;

/** Refuses the request unless the actor may run it. */
export function checkAccess(ctx: Acting, decl: AccessDecl, input: unknown): void {
  const rule = typeof decl === 'function' ? decl(input) : decl;
  if (rule.who === 'gm' && !ctx.actor.isGm) refuse(rule.message ?? GM_ONLY(rule.to));
}

/**
 * `default_member_permissions` for a command: GM-only commands are hidden from members without
 * Manage Server (a server can open them to a GM role in Server Settings → Integrations); the bot
 * checks again itself. Commands whose access depends on options are open to all.
 */
export const defaultMemberPermissions = (decl: AccessDecl): string | null => (typeof decl !== 'function' && decl.who === 'gm' ? String(MANAGE_GUILD) : null);

/** The owner of a thing (a roll's roller, a unit's owner, a game's starter) or a GM. */
export const isOwnerOrGm = (ctx: Acting, ownerId: string) => ctx.actor.isGm || ctx.actor.userId === ownerId;

/** Refuses with `message` unless the actor is the owner or a GM. */
export function assertOwnerOrGm(ctx: Acting, ownerId: string, message: Said): void {
  if (!isOwnerOrGm(ctx, ownerId)) refuse(message);
}
