// Cuts text to a length on a code-point boundary, so truncation never leaves a lone surrogate
// (the most frequent source of COM-001), and says how much was cut.

export function truncateText(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text;
  const marker = `\n[… ${text.length - maxLength} characters cut: the text was longer than a provider accepts]`;
  let end = Math.max(0, maxLength - marker.length);
  // Do not split a surrogate pair: step back off a high surrogate.
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return text.slice(0, end) + marker;
}
