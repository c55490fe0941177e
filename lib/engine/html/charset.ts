/**
 * Decoding fetched HTML bytes, following the WHATWG "encoding sniffing algorithm" order:
 * 1. a byte order mark, 2. the charset of the Content-Type header, 3. a prescan of the first 1024 bytes for
 * <meta charset> / <meta http-equiv="content-type" content="...charset=...">, 4. UTF-8.
 * (Browsers fall back to a locale-dependent legacy encoding in step 4; a crawler has no locale, and most of the
 * web is UTF-8.) Labels are resolved by TextDecoder itself, which implements the WHATWG label table in Node and
 * browsers alike (iso-8859-1 -> windows-1252, sjis -> shift_jis, ...).
 */

const PRESCAN_BYTES = 1024;

/** Resolves an encoding label to TextDecoder's canonical name, or null for unknown / unsupported labels. */
function resolveLabel(label: string | undefined | null): string | null {
  if (!label) return null;
  try {
    return new TextDecoder(label.trim()).encoding;
  } catch {
    // Unknown label, or the "replacement" encoding (iso-2022-kr, hz-gb-2312 ...), which TextDecoder refuses.
    return null;
  }
}

/** The charset parameter of a Content-Type header value (quoted or not), if any. */
export function charsetFromContentType(contentType: string | undefined): string | null {
  if (!contentType) return null;
  const params = contentType.split(';').slice(1);
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq < 0) continue;
    if (param.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    let value = param.slice(eq + 1).trim();
    if (value.startsWith('"')) {
      const end = value.indexOf('"', 1);
      value = value.slice(1, end < 0 ? undefined : end);
    }
    return value || null;
  }
  return null;
}

function bomEncoding(b: Uint8Array): string | null {
  if (b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return 'utf-8';
  if (b.length >= 2 && b[0] === 0xfe && b[1] === 0xff) return 'utf-16be';
  if (b.length >= 2 && b[0] === 0xff && b[1] === 0xfe) return 'utf-16le';
  return null;
}

const isSpace = (c: number) => c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d || c === 0x20;
const lower = (c: number) => (c >= 0x41 && c <= 0x5a ? c + 0x20 : c);

/** The WHATWG "get an attribute" step of the prescan: returns the attribute and the position after it. */
function getAttribute(b: Uint8Array, start: number, end: number): { name: string; value: string; pos: number } | null {
  let i = start;
  while (i < end && (isSpace(b[i]) || b[i] === 0x2f)) i++;
  if (i >= end || b[i] === 0x3e) return null;
  let name = '';
  let value = '';
  // Name.
  for (; i < end; i++) {
    const c = b[i];
    if (c === 0x3d && name !== '') break;
    if (isSpace(c)) break;
    if (c === 0x2f || c === 0x3e) return { name, value, pos: i };
    name += String.fromCharCode(lower(c));
  }
  while (i < end && isSpace(b[i])) i++;
  if (i >= end || b[i] !== 0x3d) return { name, value, pos: i };
  i++; // '='
  while (i < end && isSpace(b[i])) i++;
  if (i >= end) return { name, value, pos: i };
  const q = b[i];
  if (q === 0x22 || q === 0x27) {
    i++;
    while (i < end && b[i] !== q) value += String.fromCharCode(lower(b[i++]));
    return { name, value, pos: i + 1 };
  }
  while (i < end && !isSpace(b[i]) && b[i] !== 0x3e) value += String.fromCharCode(lower(b[i++]));
  return { name, value, pos: i };
}

/** WHATWG "extract a character encoding from a meta element" (the content="text/html; charset=x" form). */
function charsetFromMetaContent(content: string): string | null {
  const m = /charset\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s;"']+))/i.exec(content);
  if (!m) return null;
  return m[1] ?? m[2] ?? m[3] ?? null;
}

/** Prescans the first 1024 bytes for a meta-declared encoding (WHATWG "prescan a byte stream"). */
export function prescanMetaCharset(b: Uint8Array): string | null {
  const end = Math.min(b.length, PRESCAN_BYTES);
  let i = 0;
  while (i < end) {
    if (b[i] !== 0x3c) {
      i++;
      continue;
    }
    // <!-- comment -->
    if (b[i + 1] === 0x21 && b[i + 2] === 0x2d && b[i + 3] === 0x2d) {
      let j = i + 4;
      while (j + 2 < end && !(b[j] === 0x2d && b[j + 1] === 0x2d && b[j + 2] === 0x3e)) j++;
      i = j + 3;
      continue;
    }
    // <meta followed by space or slash
    if (
      lower(b[i + 1]) === 0x6d &&
      lower(b[i + 2]) === 0x65 &&
      lower(b[i + 3]) === 0x74 &&
      lower(b[i + 4]) === 0x61 &&
      (isSpace(b[i + 5]) || b[i + 5] === 0x2f)
    ) {
      let pos = i + 5;
      let gotPragma = false;
      let needPragma: boolean | null = null;
      let charset: string | null = null;
      const seen = new Set<string>();
      for (;;) {
        const attr = getAttribute(b, pos, end);
        if (!attr) break;
        pos = attr.pos;
        if (seen.has(attr.name)) continue;
        seen.add(attr.name);
        if (attr.name === 'http-equiv') {
          if (attr.value === 'content-type') gotPragma = true;
        } else if (attr.name === 'content') {
          const c = charsetFromMetaContent(attr.value);
          if (c && charset === null) {
            charset = c;
            needPragma = true;
          }
        } else if (attr.name === 'charset') {
          charset = attr.value;
          needPragma = false;
        }
        if (pos >= end) break;
      }
      if (charset !== null && needPragma !== null && !(needPragma && !gotPragma)) {
        let enc = resolveLabel(charset);
        if (enc) {
          // A document that could be read as ASCII cannot really be UTF-16; the spec maps these to UTF-8.
          if (enc === 'utf-16le' || enc === 'utf-16be') enc = 'utf-8';
          if (enc === 'x-user-defined') enc = 'windows-1252';
          return enc;
        }
      }
      i = pos + 1;
      continue;
    }
    // Other tags (<x or </x): skip to the end of the tag, honouring quoted attribute values as the spec does.
    const next = b[i + 1];
    const isLetter = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
    if (isLetter(next) || (next === 0x2f && isLetter(b[i + 2]))) {
      let pos = i + 2;
      while (pos < end && !isSpace(b[pos]) && b[pos] !== 0x3e) pos++;
      for (;;) {
        const attr = getAttribute(b, pos, end);
        if (!attr) break;
        pos = attr.pos;
        if (pos >= end) break;
      }
      i = pos + 1;
      continue;
    }
    // <! <? </ not followed by a letter: skip to the next '>'.
    if (next === 0x21 || next === 0x3f || next === 0x2f) {
      let j = i + 2;
      while (j < end && b[j] !== 0x3e) j++;
      i = j + 1;
      continue;
    }
    i++;
  }
  return null;
}

/** windows-1252 code points of bytes 0x80-0x9F (the rest of the encoding is ISO-8859-1). */
const CP1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f, 0x90,
  0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];

/**
 * Some runtimes (Node 20+, whose latin1 fast path serves the windows-1252 label) decode 0x80-0x9F as C1 controls
 * instead of € “ ” …; detected once, then those bytes are mapped by hand.
 */
let cp1252Broken: boolean | undefined;
function decodeWindows1252(body: Uint8Array): string {
  cp1252Broken ??= new TextDecoder('windows-1252').decode(new Uint8Array([0x80])) !== '\u20ac';
  const text = new TextDecoder('windows-1252').decode(body);
  if (!cp1252Broken || !/[\x80-\x9f]/.test(text)) return text;
  return text.replace(/[\x80-\x9f]/g, (c) => String.fromCharCode(CP1252_HIGH[c.charCodeAt(0) - 0x80]));
}

/**
 * Decodes HTML bytes to text. The encoding comes from, in order: a BOM, the Content-Type header's charset, a
 * <meta> declaration in the first 1024 bytes, then UTF-8. Unknown labels are skipped (the next source decides).
 * Never throws: undecodable bytes become U+FFFD. `charset` is the canonical name of the encoding used.
 */
export function decodeHtml(body: Uint8Array, contentType?: string): { text: string; charset: string } {
  const charset = bomEncoding(body) ?? resolveLabel(charsetFromContentType(contentType)) ?? prescanMetaCharset(body) ?? 'utf-8';
  let text: string;
  try {
    // TextDecoder strips a BOM that matches the encoding (ignoreBOM: false).
    text = charset === 'windows-1252' ? decodeWindows1252(body) : new TextDecoder(charset, { fatal: false }).decode(body);
  } catch {
    text = new TextDecoder('utf-8', { fatal: false }).decode(body);
    return { text, charset: 'utf-8' };
  }
  return { text, charset };
}
