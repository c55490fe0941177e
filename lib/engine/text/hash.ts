/**
 * A short, stable hash of a text, for telling whether a page's main content changed between two fetches. Not for
 * security: a page's author can make two texts collide, and gains nothing by it (the page would be listed unchanged).
 *
 * cyrb53 (bryc, public domain): two 32-bit multiply-xorshift lanes mixed into 53 bits, written in base 36 (at most
 * 11 characters). Synchronous and dependency-free, so it runs inside the evaluator's single pass; Web Crypto's digest
 * is asynchronous, and a package for these few lines would be more code to review than the lines themselves.
 */
export function hashText(text: string): string {
  return cyrb53(text).toString(36);
}

/** FNV-1a (32 bits) of `prefix + s`, without building that string: a table's or a feature's hash (not mixed well). */
export function fnv1a(s: string, prefix = ''): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < prefix.length; i++) h = Math.imul(h ^ prefix.charCodeAt(i), 0x01000193);
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** cyrb53 of `text` with `seed`: a uniform 53-bit integer (the lab also uses it as a counter-based random source). */
export function cyrb53(text: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
