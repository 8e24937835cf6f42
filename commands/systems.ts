import type { Context } from '../src/core/command.js';
import { installedPacks } from '../src/core/packs.js';
import { orphanPackUnits, packUnitSpec } from '../src/core/pack-units.js';
import type { SystemModule, UnitSpec } from '../src/core/system.js';
import { isSystemId, type SystemId } from '../src/rules/systems.js';
import asl from './asl/system.js';
import heartsOfTin from './hearts-of-tin/system.js';
import lightningWar from './lightning-war/system.js';
import wachtAmRhein from './wacht-am-rhein/system.js';

/**
 * Every built-in system's descriptor, under its id: a system in the list of systems without its
 * descriptor here, or a descriptor of another id, does not compile.
 */
export type BuiltInSystems = { readonly [K in SystemId]: SystemModule<K> };

export const BUILT_IN_SYSTEMS: BuiltInSystems = {
  asl,
  'hearts-of-tin': heartsOfTin,
  'lightning-war': lightningWar,
  'wacht-am-rhein': wachtAmRhein,
};

export const SYSTEM_MODULES: readonly SystemModule[] = Object.values(BUILT_IN_SYSTEMS);

/** A built-in system's descriptor; none for a rule pack's game. */
export const systemModule = (system: string): SystemModule | undefined => (isSystemId(system) ? BUILT_IN_SYSTEMS[system] : undefined);

/** How a game's units are written and read: its built-in system's, or its rule pack's (as installed now). */
export async function unitSpecOf(ctx: Context, system: string): Promise<UnitSpec> {
  const builtIn = systemModule(system);
  if (builtIn) return builtIn.units;
  const id = system.replace(/^pack:/, '');
  const installed = (await installedPacks(ctx)).get(id);
  return installed ? packUnitSpec(installed.pack) : orphanPackUnits(id);
}
