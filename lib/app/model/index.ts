/**
 * The bottom floor: plain records and wire types, no behaviour beyond type guards. Everything above may import it;
 * it imports nothing of lib/app above it (biome.json enforces the floors).
 */
export * from './protocol';
export * from './records';
export * from './views';
