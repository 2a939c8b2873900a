// Puts text in a fenced code block that the text cannot close: the fence is one backtick longer than
// the longest run of backticks inside (CommonMark closes a fence only with one at least as long).

export function fence(text: string, language = ""): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const marker = "`".repeat(Math.max(3, longest + 1));
  return `${marker}${language}\n${text}\n${marker}`;
}
