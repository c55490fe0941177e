/**
 * What a strategy is to the rest of the engine: its description, its parameters and how to make one. Each strategy
 * file exports one {@link StrategyInfo}; registry.ts lists them.
 */
import type { Strategy, StrategyContext } from '../types';

/** One tunable parameter of a strategy, described well enough for a settings form or `--help`. */
export interface ParamSpec {
  name: string;
  label: string;
  type: 'number' | 'boolean' | 'string';
  default: number | boolean | string;
  /** Inclusive bounds for numbers. */
  min?: number;
  max?: number;
  /** Numbers only: must be a whole number. */
  integer?: boolean;
  description: string;
}

/** A registered strategy: what it is, where it comes from, how to make one. */
export interface StrategyInfo {
  /** Registry name, lowercase with dashes, e.g. 'best-n-first'. */
  name: string;
  /** Short human name, e.g. 'Best-N-First'. */
  label: string;
  description: string;
  /** The paper it follows (citation). */
  source: string;
  params: ParamSpec[];
  /** Other names that select this strategy with some parameters fixed, e.g. { 'best-first': { n: 1 } }. */
  aliases?: Record<string, Record<string, number>>;
  /** Builds an instance; `ctx.params` is already complete and checked against `params`. */
  create(ctx: StrategyContext): Strategy;
}

/** Parameters after {@link resolveParams}: every parameter of the spec present and checked. */
export type StrategyParams = Record<string, number | string | boolean>;

/**
 * Completes and checks parameters against a strategy's ParamSpecs: missing ones get their default; numbers given as
 * numeric strings (from a command line) are converted.
 * @throws Error naming the parameter if one is unknown, of the wrong type or out of range.
 */
export function resolveParams(
  info: Pick<StrategyInfo, 'name' | 'params'>,
  given: StrategyContext['params'] = {},
): StrategyParams {
  const out: StrategyParams = {};
  const specs = new Map(info.params.map((p) => [p.name, p]));
  for (const name of Object.keys(given)) {
    if (!specs.has(name)) {
      const known = info.params.map((p) => p.name).join(', ') || 'none';
      throw new Error(`strategy ${info.name} has no parameter "${name}" (parameters: ${known})`);
    }
  }
  for (const spec of info.params) {
    let value = given[spec.name] ?? spec.default;
    const where = `parameter ${spec.name} of ${info.name}`;
    if (spec.type === 'number') {
      if (typeof value === 'string' && value.trim() !== '') value = Number(value);
      if (typeof value !== 'number' || !Number.isFinite(value))
        throw new Error(`${where} must be a number, got ${String(given[spec.name])}`);
      if (spec.integer && !Number.isInteger(value)) throw new Error(`${where} must be a whole number, got ${value}`);
      if (spec.min !== undefined && value < spec.min) throw new Error(`${where} must be >= ${spec.min}, got ${value}`);
      if (spec.max !== undefined && value > spec.max) throw new Error(`${where} must be <= ${spec.max}, got ${value}`);
    } else if (spec.type === 'boolean') {
      if (value === 'true') value = true;
      else if (value === 'false') value = false;
      if (typeof value !== 'boolean') throw new Error(`${where} must be true or false, got ${String(value)}`);
    } else if (typeof value !== 'string') {
      throw new Error(`${where} must be a string, got ${String(value)}`);
    }
    out[spec.name] = value;
  }
  return out;
}

/**
 * {@link resolveParams} for strategies whose parameters are all numbers: the complete, checked values by name. A
 * strategy reads its parameters through this once, from its spec; there is no second default anywhere.
 */
export function numericParams<K extends string>(
  info: Pick<StrategyInfo, 'name' | 'params'>,
  given: StrategyContext['params'] = {},
): Record<K, number> {
  const out = resolveParams(info, given);
  for (const spec of info.params) {
    if (spec.type !== 'number') throw new Error(`parameter ${spec.name} of ${info.name} is not a number`);
  }
  return out as Record<K, number>;
}
