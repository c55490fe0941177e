/**
 * Colour arithmetic for the visibility check (visibility.ts): computed CSS colours read as numbers, and the WCAG
 * contrast ratio of ink drawn over a background, which tells text in the background's own colour (ratio 1) from text
 * a person reads (body text is 4.5 or more; faint grey captions about 2).
 */

/** A colour in sRGB, channels 0-255, alpha 0-1. */
export interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

/**
 * A computed colour (`rgb(…)`, `rgba(…)`, `color(srgb …)`, `transparent`) as numbers: null for fully transparent,
 * undefined for a form this does not read (oklch(), currentcolor in old engines): the caller then assumes it is seen.
 */
export function parseColour(value: string): Rgba | null | undefined {
  const v = value.trim().toLowerCase();
  if (v === 'transparent') return null;
  let m = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)\s*(?:[,/]\s*([\d.]+)(%?))?\s*\)$/.exec(v);
  if (m) {
    const a = m[4] === undefined ? 1 : Number(m[4]) / (m[5] ? 100 : 1);
    return a === 0 ? null : { r: Number(m[1]), g: Number(m[2]), b: Number(m[3]), a };
  }
  m = /^color\(srgb\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*(?:\/\s*([\d.]+)(%?))?\s*\)$/.exec(v);
  if (m) {
    const a = m[4] === undefined ? 1 : Number(m[4]) / (m[5] ? 100 : 1);
    return a === 0 ? null : { r: Number(m[1]) * 255, g: Number(m[2]) * 255, b: Number(m[3]) * 255, a };
  }
  return undefined;
}

/** Relative luminance (WCAG 2) of an opaque colour. */
function luminance(c: Rgba): number {
  const lin = (x: number) => {
    const s = x / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
}

/** The contrast ratio (1 to 21) of `ink`, drawn with its alpha over the opaque `background`. */
export function contrastRatio(ink: Rgba, background: Rgba): number {
  const mix = (f: number, b: number) => f * ink.a + b * (1 - ink.a);
  const drawn = { r: mix(ink.r, background.r), g: mix(ink.g, background.g), b: mix(ink.b, background.b), a: 1 };
  const [hi, lo] = [luminance(drawn), luminance(background)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}
