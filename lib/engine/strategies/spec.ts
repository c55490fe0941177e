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

/** Reads a positive whole number parameter, with a clear error. */
export function positiveIntParam(params: StrategyContext['params'], name: string, fallback: number): number {
  const raw = params[name] ?? fallback;
  const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`parameter ${name} must be a positive whole number, got ${String(raw)}`);
  }
  return value;
}
