/**
 * User-visible strings: `public/_locales/<lang>/messages.json` (the WebExtension i18n convention), read through the
 * browser's `i18n.getMessage`, so a translation is one more folder. English is bundled too, as the fallback where the
 * API is missing (unit tests under Node) and the source of the key type: a missing key fails to compile.
 */
import en from '../../public/_locales/en/messages.json';

interface Message {
  message: string;
  placeholders?: Record<string, { content: string }>;
}

export type MessageKey = Extract<keyof typeof en, string>;

/** Fills $NAME$ placeholders (whose content is $1, $2, ...) the way browsers do. */
export function substitute(entry: Message, args: string[]): string {
  return entry.message
    .replace(/\$([A-Za-z0-9_@]+)\$/g, (whole, name: string) => {
      const ph = entry.placeholders?.[name.toLowerCase()];
      return ph ? ph.content.replace(/\$(\d)/g, (_, d: string) => args[Number(d) - 1] ?? '') : whole;
    })
    .replace(/\$\$/g, '$');
}

/** The message for `key` with its placeholders filled. */
export function t(key: MessageKey, ...subs: (string | number)[]): string {
  const args = subs.map(String);
  let text = '';
  try {
    const getMessage =
      typeof browser !== 'undefined' ? (browser.i18n?.getMessage as ((k: string, s: string[]) => string) | undefined) : undefined;
    text = getMessage?.(key, args) ?? '';
  } catch {
    text = '';
  }
  return text || substitute((en as Record<string, Message>)[key], args);
}

/** One of two messages by count (`n` is the first substitution): "1 new page" / "12 new pages". */
export function tn(n: number, one: MessageKey, other: MessageKey, ...subs: (string | number)[]): string {
  return t(n === 1 ? one : other, n, ...subs);
}
