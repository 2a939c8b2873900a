// Code points assigned in Unicode 17.0 (2025). The reference (tiktoken 1.0.22's Rust regex tables)
// predates them and treats them as unassigned, while this Node's V8 classifies them as letters,
// marks or numbers, so a piece boundary, and a count, can differ. Real text almost never has them
// (most are CJK Extension J and Tangut); docs/tokenizers.md says so. Property tests leave them out.
const RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x088f, 0x088f],
  [0x0c5c, 0x0c5c],
  [0x0cdc, 0x0cdc],
  [0x1acf, 0x1aeb],
  [0xa7ce, 0xa7cf],
  [0xa7d2, 0xa7d2],
  [0xa7d4, 0xa7d4],
  [0xa7f1, 0xa7f1],
  [0x10940, 0x10959],
  [0x10ec5, 0x10ec7],
  [0x10efa, 0x10efb],
  [0x11b60, 0x11b67],
  [0x11db0, 0x11de9],
  [0x16ea0, 0x16ed3],
  [0x16ff2, 0x16ff6],
  [0x187f8, 0x187ff],
  [0x18d09, 0x18d1e],
  [0x18d80, 0x18df2],
  [0x1e6c0, 0x1e6ff],
  [0x2b73a, 0x2b73f],
  [0x2cea2, 0x2cead],
  [0x323b0, 0x33479],
];

export function isNewerThanReference(codePoint: number): boolean {
  return RANGES.some(([first, last]) => codePoint >= first && codePoint <= last);
}

export function withoutNewerCodePoints(text: string): string {
  let kept = "";
  for (const character of text) if (!isNewerThanReference(character.codePointAt(0)!)) kept += character;
  return kept;
}
