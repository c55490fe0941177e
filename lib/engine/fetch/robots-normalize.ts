/**
 * The one spelling robots.txt patterns and URLs are compared in (RFC 9309 2.2.2, 2.2.3), so a pattern matches the URL
 * as it will be requested: escapes of unreserved characters decoded (`/%7Euser` is `/~user`), the hex digits of other
 * escapes upper-cased (an escaped reserved character stays escaped: `%2F` is not `/`), characters that RFC 3986 does
 * not allow in a URI (spaces, quotes, non-ASCII, ...) percent-encoded as UTF-8. On the URL side `*` and `$` become
 * %2A and %24, which is how a pattern names them literally (RFC 9309 2.2.3); in a pattern they stay wildcards.
 */

/** How a character below 128 is written: kept, percent-encoded, or the start of an escape. */
const KEEP = 0;
const ENCODE = 1;
const PERCENT = 2;

/** URI characters (RFC 3986 unreserved and reserved) are kept; `*` and `$` are encoded on the URL side. */
function classTable(keepStar: boolean): Uint8Array {
  const table = new Uint8Array(128);
  for (let code = 0; code < 128; code++) {
    const ch = String.fromCharCode(code);
    if (ch === '%') table[code] = PERCENT;
    else if (/[A-Za-z0-9\-._~:/?#[\]@!&'()+,;=]/.test(ch) || (keepStar && ch === '*')) table[code] = KEEP;
    else table[code] = ENCODE;
  }
  return table;
}
const URL_CLASSES = classTable(false);
const PATTERN_CLASSES = classTable(true);
const HEX_DIGITS = '0123456789ABCDEF';

function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  const lower = code | 32;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}

function isUnreserved(code: number): boolean {
  const lower = code | 32;
  return (lower >= 97 && lower <= 122) || (code >= 48 && code <= 57) || code === 45 || code === 46 || code === 95 || code === 126;
}

function percentByte(byte: number): string {
  return `%${HEX_DIGITS[byte >> 4]}${HEX_DIGITS[byte & 15]}`;
}

/** The UTF-8 escapes of one code point (a lone surrogate as U+FFFD, as the URL parser writes it). */
function percentCodePoint(codePoint: number): string {
  let cp = codePoint;
  if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
  if (cp < 0x80) return percentByte(cp);
  if (cp < 0x800) return percentByte(0xc0 | (cp >> 6)) + percentByte(0x80 | (cp & 63));
  if (cp < 0x10000) {
    return percentByte(0xe0 | (cp >> 12)) + percentByte(0x80 | ((cp >> 6) & 63)) + percentByte(0x80 | (cp & 63));
  }
  return (
    percentByte(0xf0 | (cp >> 18)) +
    percentByte(0x80 | ((cp >> 12) & 63)) +
    percentByte(0x80 | ((cp >> 6) & 63)) +
    percentByte(0x80 | (cp & 63))
  );
}

/**
 * The spelling patterns and URLs are compared in (see the module comment). `pattern`: `text` is a pattern without its
 * closing `$`, whose `*` stay wildcards; otherwise it is a URL's path and query. The result is printable ASCII.
 */
export function normalizeForMatch(text: string, pattern: boolean): string {
  const classes = pattern ? PATTERN_CLASSES : URL_CLASSES;
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code >= 128 || classes[code] !== KEEP) break;
    i++;
  }
  if (i === text.length) return text;
  let out = text.slice(0, i);
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code >= 128) {
      const codePoint = text.codePointAt(i) as number;
      out += percentCodePoint(codePoint);
      i += codePoint > 0xffff ? 2 : 1;
      continue;
    }
    const kind = classes[code];
    if (kind === KEEP) {
      out += text[i];
      i++;
    } else if (kind === ENCODE) {
      out += percentByte(code);
      i++;
    } else {
      const high = i + 2 < text.length ? hexValue(text.charCodeAt(i + 1)) : -1;
      const low = high >= 0 ? hexValue(text.charCodeAt(i + 2)) : -1;
      if (low < 0) {
        out += '%'; // not an escape: a lone '%' stays as the URL parser leaves it
        i++;
        continue;
      }
      const byte = high * 16 + low;
      out += isUnreserved(byte) ? String.fromCharCode(byte) : percentByte(byte);
      i += 3;
    }
  }
  return out;
}
