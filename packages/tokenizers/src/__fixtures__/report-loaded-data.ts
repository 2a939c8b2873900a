// Run in a fresh process by lazy-loading.test.ts: which tokenizer data files are loaded after
// importing the package, creating tokenizers and a plugin, and after each first count.
import { createRequire } from "node:module";
import { createTokenizer, getEncoding, TokenizerPlugin } from "../index.js";

const cache = createRequire(import.meta.url).cache;
const DATA_FILES = {
  "gpt-tokenizer o200k_base": "gpt-tokenizer/cjs/bpeRanks/o200k_base.js",
  "gpt-tokenizer cl100k_base": "gpt-tokenizer/cjs/bpeRanks/cl100k_base.js",
  "js-tiktoken o200k_base": "js-tiktoken/dist/ranks/o200k_base.cjs",
  "js-tiktoken cl100k_base": "js-tiktoken/dist/ranks/cl100k_base.cjs",
};

function loaded(): string[] {
  const files = Object.keys(cache).map((file) => file.replaceAll("\\", "/"));
  return Object.entries(DATA_FILES)
    .filter(([, path]) => files.some((file) => file.endsWith(path)))
    .map(([name]) => name);
}

const steps: Record<string, string[]> = {};
const o200k = getEncoding("o200k_base");
createTokenizer("claude-sonnet-4", { backend: "js-tiktoken" });
createTokenizer("gpt-4");
new TokenizerPlugin({ defaultModel: "gpt-4o" });
steps.created = loaded();
o200k.count("first count");
steps["first o200k count"] = loaded();
o200k.count("second count");
getEncoding("o200k_base").count("another tokenizer object, same encoding");
steps["more o200k counts"] = loaded();
createTokenizer("gpt-3.5-turbo").count("cl100k now");
steps["first cl100k count"] = loaded();
process.stdout.write(JSON.stringify(steps));
