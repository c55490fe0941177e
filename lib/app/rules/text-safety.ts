/**
 * Page text is hostile: titles and snippets come from any web page. Before it reaches a terminal, an export or the
 * UI, it goes through here.
 *
 * - Control characters (C0, DEL, C1) are removed, and with them every terminal escape sequence (window title, clear
 *   screen, OSC 52 clipboard writes, OSC 8 links): without ESC (or C1's CSI/OSC) a terminal interprets nothing.
 * - Bidirectional embeddings, overrides and isolates (U+202A-202E, U+2066-2069) are removed: `x\u202Egnp.exe`
 *   would display as `xexe.png`. The implicit marks (LRM, RLM, ALM) stay: they reorder nothing by themselves.
 * - Line and paragraph separators (U+2028, U+2029) become spaces, so one field stays one line.
 */

/**
 * ESC-introduced sequences, removed whole so no residue shows: CSI (ESC [ ... final), OSC (ESC ] ... BEL or ST),
 * DCS/SOS/PM/APC (ESC P|X|^|_ ... ST), and two-character escapes. Built from a string: the characters are the point.
 */
const ESC = '\\u001b';
const ST = `(?:${ESC}\\\\|\\u009c)`;
const ESCAPE_SEQUENCE = new RegExp(
  `${ESC}(?:\\[[0-?]*[ -/]*[@-~]|\\][^\\u0007\\u001b\\u009c]*(?:\\u0007|${ST})?|[PX^_][^\\u001b\\u009c]*${ST}?|[ -/]*[0-~])`,
  'g',
);
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what these remove
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
const LINE_BREAKS = /[\t\n\r\u2028\u2029]/g;
/** Bidirectional embeddings and overrides (U+202A-202E) and isolates (U+2066-2069). */
export const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/g;

/**
 * The text without terminal escape sequences, control characters or bidirectional overrides; tabs and line breaks
 * are kept (use {@link oneLine} for a single line). Not a string: empty.
 */
export function safeText(value: unknown): string {
  if (typeof value !== 'string') return '';
  return value.replace(ESCAPE_SEQUENCE, '').replace(CONTROL, '').replace(BIDI_CONTROL, '');
}

/** {@link safeText} on one line: line breaks and tabs become spaces, runs of whitespace collapse, ends trimmed. */
export function oneLine(value: unknown): string {
  return safeText(value).replace(LINE_BREAKS, ' ').replace(/\s+/g, ' ').trim();
}

const HTML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML content and quoted attribute values alike. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ENTITIES[c]);
}

/**
 * JSON text with the bidirectional controls written as `\u` escapes: the same data once parsed (nothing is lost),
 * but a viewer showing the file displays no reordered text. JSON.stringify escapes the C0 controls; DEL and the C1
 * controls are escaped here too, so the text is safe to print to a terminal (`npm run crawl -- --json`).
 */
export function escapeBidiInJson(json: string): string {
  return json.replace(BIDI_CONTROL, unicodeEscape).replace(/[\u007f-\u009f]/g, unicodeEscape); // DEL and C1 controls (0x9b is a terminal's CSI): JSON leaves them raw
}

const unicodeEscape = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
