/** Whether a code point takes two terminal columns (East Asian Wide/Fullwidth, most emoji). */
function isWide(code: number): boolean {
  return (
    (code >= 0x1100 && code <= 0x115f) ||
    code === 0x231a ||
    code === 0x231b ||
    (code >= 0x23e9 && code <= 0x23ec) ||
    code === 0x23f0 ||
    code === 0x23f3 ||
    (code >= 0x25fd && code <= 0x25fe) ||
    (code >= 0x2614 && code <= 0x2615) ||
    (code >= 0x2e80 && code <= 0x303e) ||
    (code >= 0x3041 && code <= 0x33ff) ||
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0xa000 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1f64f) ||
    (code >= 0x1f900 && code <= 0x1f9ff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  );
}

/** Whether a code point takes no column (combining marks, zero-width, variation selectors). */
function isZeroWidth(code: number): boolean {
  return (
    (code >= 0x0300 && code <= 0x036f) ||
    (code >= 0x200b && code <= 0x200f) ||
    (code >= 0xfe00 && code <= 0xfe0f) ||
    code === 0xfeff
  );
}

/** Terminal columns a string takes (no ANSI sequences expected). */
export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    if (code < 0x20 || isZeroWidth(code)) continue;
    width += isWide(code) ? 2 : 1;
  }
  return width;
}

/** Cuts `text` to at most `width` columns, ending with `…` when it was cut. */
export function truncateToWidth(text: string, width: number): string {
  if (width <= 0) return '';
  if (displayWidth(text) <= width) return text;
  let out = '';
  let used = 0;
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    const w = code < 0x20 || isZeroWidth(code) ? 0 : isWide(code) ? 2 : 1;
    if (used + w > width - 1) break;
    out += char;
    used += w;
  }
  return `${out}…`;
}

/** Pads `text` with spaces to `width` columns (cutting it first when longer). */
export function padToWidth(text: string, width: number): string {
  const cut = truncateToWidth(text, width);
  return cut + ' '.repeat(Math.max(0, width - displayWidth(cut)));
}
