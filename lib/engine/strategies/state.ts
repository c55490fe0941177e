/** Checks used by strategies when restoring saved state: each narrows plain JSON or throws a TypeError naming what is wrong. */
import type { Json } from '../types';

/** Narrows saved state to an object, or throws a TypeError naming the strategy. */
export function asObject(state: Json | undefined, what: string): { [key: string]: Json } {
  if (state === null || state === undefined || typeof state !== 'object' || Array.isArray(state)) {
    throw new TypeError(`invalid ${what} state: not an object`);
  }
  return state;
}

/** Narrows saved state to an array. */
export function asArray(state: Json | undefined, what: string): Json[] {
  if (!Array.isArray(state)) throw new TypeError(`invalid ${what} state: not an array`);
  return state;
}

/** Narrows saved state to a finite number. */
export function num(x: Json | undefined, what: string): number {
  if (typeof x !== 'number' || !Number.isFinite(x)) throw new TypeError(`invalid ${what}: not a finite number`);
  return x;
}

/** Narrows saved state to a string. */
export function str(x: Json | undefined, what: string): string {
  if (typeof x !== 'string') throw new TypeError(`invalid ${what}: not a string`);
  return x;
}

/** Narrows saved state to an array of strings. */
export function strings(x: Json | undefined, what: string): string[] {
  const a = asArray(x, what);
  for (const s of a) if (typeof s !== 'string') throw new TypeError(`invalid ${what}: holds a non-string`);
  return a as string[];
}
