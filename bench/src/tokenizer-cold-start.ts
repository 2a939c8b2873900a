// Child process of the tokenizer benchmark: the time from importing one tokenizer to the end of its
// first count, and the process's memory then. Run as
//   node --import tsx --conditions=@ctxpipe/source bench/src/tokenizer-cold-start.ts <subject>
// and prints one JSON line. @ctxpipe/core is imported before the clock starts, as in an application
// that already uses ctxpipe.
import "@ctxpipe/core";
import { isTokenizerSubject, loadTokenizerSubject, TOKENIZER_SUBJECTS } from "./tokenizer-subjects.js";

export interface ColdStartSample {
  /** Import, data load and the first count, in milliseconds. */
  readonly milliseconds: number;
  /** Resident set size after the first count, in MB. */
  readonly rssMegabytes: number;
  /** What the import and the first count added to the resident set, in MB. */
  readonly addedMegabytes: number;
}

const FIRST_TEXT = "The build fails on CI but not locally — 构建在持续集成上失败，但在本地成功。{\"path\":\"src/index.ts\"}";

const subject = process.argv[2];
if (!isTokenizerSubject(subject)) {
  process.stderr.write(`usage: tokenizer-cold-start.ts <${TOKENIZER_SUBJECTS.join(" | ")}>\n`);
  process.exit(2);
}
const rssBefore = process.memoryUsage().rss;
const started = performance.now();
const count = await loadTokenizerSubject(subject);
count(FIRST_TEXT);
const milliseconds = performance.now() - started;
const rss = process.memoryUsage().rss;
const sample: ColdStartSample = { milliseconds, rssMegabytes: rss / 1e6, addedMegabytes: (rss - rssBefore) / 1e6 };
process.stdout.write(`${JSON.stringify(sample)}\n`);
