// Numbers as the page shows them: grouped digits, the same on every machine.
export function formatCount(value: number): string {
  return value.toLocaleString("en-US");
}

/** A part of a whole as a percentage with one decimal, "0.0%" when the whole is 0. */
export function formatPercent(part: number, whole: number): string {
  return whole === 0 ? "0.0%" : `${((part / whole) * 100).toFixed(1)}%`;
}
