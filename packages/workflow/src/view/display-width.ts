import stringWidth from 'string-width';

/** Terminal columns a string takes (East Asian wide characters and emoji count 2; string-width). */
export function displayWidth(text: string): number {
  return stringWidth(text);
}

let graphemes: Intl.Segmenter | undefined;

/** Cuts `text` to at most `width` columns, ending with `…` when it was cut (never inside a grapheme). */
export function truncateToWidth(text: string, width: number): string {
  if (width <= 0) return '';
  if (stringWidth(text) <= width) return text;
  graphemes ??= new Intl.Segmenter();
  let out = '';
  let used = 0;
  for (const { segment } of graphemes.segment(text)) {
    const w = stringWidth(segment);
    if (used + w > width - 1) break;
    out += segment;
    used += w;
  }
  return `${out}…`;
}

/** Pads `text` with spaces to `width` columns (cutting it first when longer). */
export function padToWidth(text: string, width: number): string {
  const cut = truncateToWidth(text, width);
  return cut + ' '.repeat(Math.max(0, width - stringWidth(cut)));
}
