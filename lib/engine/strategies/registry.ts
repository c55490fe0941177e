/**
 * The strategy registry: every built-in strategy, by name and alias, and the parsing of strategy names as users type
 * them. Built from a plain list (no import side effects), so a bundle that does not use strategies leaves them out.
 */
import type { StrategyContext, Strategy } from '../types';
import { adaptiveBnfInfo } from './adaptive-bnf';
import { anchorTextInfo } from './anchor-text';
import { bestNFirstInfo } from './best-n-first';
import { breadthFirstInfo } from './breadth-first';
import { foragerInfo } from './forager';
import { foragerClassicInfo } from './forager-classic';
import { foragerLeadsInfo } from './forager-leads';
import { infoSpidersInfo } from './infospiders';
import { pageRankInfo } from './pagerank';
import { sharkSearchInfo } from './shark-search';
import type { StrategyInfo } from './spec';

export type { ParamSpec, StrategyInfo, StrategyParams } from './spec';
export { resolveParams } from './spec';

/** Built-in strategies, in the order listStrategies() shows them. */
const BUILT_IN: StrategyInfo[] = [
  bestNFirstInfo,
  breadthFirstInfo,
  pageRankInfo,
  sharkSearchInfo,
  infoSpidersInfo,
  anchorTextInfo,
  adaptiveBnfInfo,
  foragerInfo,
  foragerLeadsInfo,
  foragerClassicInfo,
];

const registry = new Map<string, StrategyInfo>(BUILT_IN.map((info) => [info.name, info]));

/**
 * Adds a strategy to the registry.
 * @throws Error if the name (or one of its aliases) is already taken or malformed.
 */
export function registerStrategy(info: StrategyInfo): void {
  const names = [info.name, ...Object.keys(info.aliases ?? {})];
  for (const name of names) {
    if (!/^[a-z][a-z0-9-]*$/.test(name)) throw new Error(`strategy name "${name}" must be lowercase letters, digits and dashes`);
    if (lookup(name)) throw new Error(`strategy name "${name}" is already registered`);
  }
  registry.set(info.name, info);
}

/** All registered strategies, in registration order. */
export function listStrategies(): StrategyInfo[] {
  return [...registry.values()];
}

/** The registered strategy called `name` (not an alias), or undefined. */
export function getStrategyInfo(name: string): StrategyInfo | undefined {
  return registry.get(name);
}

/** Finds a strategy by name or alias. */
function lookup(name: string): { info: StrategyInfo; fixed: Record<string, number> } | undefined {
  const info = registry.get(name);
  if (info) return { info, fixed: {} };
  for (const candidate of registry.values()) {
    const fixed = candidate.aliases?.[name];
    if (fixed) return { info: candidate, fixed };
  }
  return undefined;
}

function knownNames(): string {
  const names: string[] = [];
  for (const info of registry.values()) names.push(info.name, ...Object.keys(info.aliases ?? {}));
  if (registry.has('best-n-first')) names.push('bfs<N>');
  return names.join(', ');
}

/**
 * Parses a strategy as typed by a user: a registered name ('best-n-first', 'breadth-first'), an alias
 * ('best-first' = Best-N-First with n = 1), or the paper's shorthand 'bfs<N>' ('bfs16' = Best-N-First with n = 16;
 * BFS there means Best-First Search, not breadth-first). Case and surrounding spaces are ignored.
 * @throws Error listing the known names if `text` matches none.
 */
export function strategySpec(text: string): { name: string; params: Record<string, number> } {
  const key = String(text).trim().toLowerCase();
  const short = /^bfs-?(\d+)$/.exec(key);
  if (short && registry.has('best-n-first')) {
    const n = Number(short[1]);
    if (!Number.isSafeInteger(n) || n < 1) throw new Error(`"${text}": N in bfs<N> must be a positive integer`);
    return { name: 'best-n-first', params: { n } };
  }
  const found = lookup(key);
  if (!found) throw new Error(`unknown strategy "${text}"; known: ${knownNames()}`);
  return { name: found.info.name, params: { ...found.fixed } };
}

/**
 * Creates a strategy by name or alias (see {@link strategySpec}); alias-fixed parameters apply unless `ctx.params`
 * sets them, and missing parameters get their defaults (the strategy resolves them against its spec).
 * @throws Error for an unknown name or bad parameters, listing what is known.
 */
export function createStrategy(name: string, ctx: StrategyContext): Strategy {
  const spec = strategySpec(name);
  const info = registry.get(spec.name)!;
  return info.create({ ...ctx, params: { ...spec.params, ...ctx.params } });
}
