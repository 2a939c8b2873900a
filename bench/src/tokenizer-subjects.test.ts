import { describe, expect, test } from "vitest";
import { loadTokenizerSubject, TOKENIZER_SUBJECTS } from "./tokenizer-subjects.js";

// The benchmark compares speeds; it only means something if every subject counts the same tokens.
const TEXTS = [
  "",
  "The build fails on CI but not locally, so the difference must be in the environment.",
  "构建在持续集成上失败，但在本地成功。",
  '{"path":"src/module-12.ts","lines":[1,2,3]}',
  "<|endoftext|> is text here, not a special token",
  "    indented\r\n\tcode();  \n\n",
];

describe.for(TOKENIZER_SUBJECTS)("%s", (subject) => {
  test("counts o200k_base tokens like the default tokenizer", async () => {
    const count = await loadTokenizerSubject(subject);
    const reference = await loadTokenizerSubject("ctxpipe-gpt-tokenizer");
    expect(TEXTS.map(count)).toEqual(TEXTS.map(reference));
    expect(count(TEXTS[1]!)).toBe(18);
  });
});
