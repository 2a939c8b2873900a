// The --help texts.
import { STRATEGY_NAMES } from "@ctxpipe/compression";
import { DEFAULT_OUTPUT_RESERVE_CAP } from "@ctxpipe/tokenizers";
import { DEFAULT_COMPRESSION } from "../args/cli-options.js";

const SHARED = `Input:
  FILE                     .jsonl: one stored message (or Responses API item) per line; .json: an
                           array of them; "-" or nothing: standard input. A @ctxpipe/store
                           conversation log also works.
  --format auto|json|jsonl How to read FILE (default: by its name, else by its first character).
  --input-shape SHAPE      What the records are: stored (messages), openai-responses (items of
                           OpenAI's Responses API: message, function_call, function_call_output,
                           reasoning …) or auto (default: Responses items when a record has a type
                           only they have, such as function_call, or input_text/output_text parts).

The request:
  --provider NAME          openai (default; Chat Completions), openai-responses (the Responses
                           API), anthropic, gemini or xml.
  --model NAME             The model (default gpt-4o): its tokenizer and context window.
  --max-tokens N           The whole request's budget, prompt and answer (default: the model's
                           context window; the prompt never gets more than the model's input limit).
  --reserve-output N       Tokens of it kept free for the answer (default: the model's output
                           limit, at most ${DEFAULT_OUTPUT_RESERVE_CAP.toLocaleString("en-US")} and a quarter of the budget).
  --system TEXT            System prompt text.
  --system-file PATH       System prompt text from a file (after --system).
  --mode chat|agent|run    Compose the system prompt for this mode: a "# Mode:" header, the
                           mode's rules, the tool policy, the --agent persona and, in run
                           mode, the --run-context step.
  --run-context PATH       Run mode: where the workflow run stands (JSON).
  --agent PATH             The agent's persona (JSON).
  --tools PATH             Tool definitions [{ name, description?, parameters? }] (JSON).
  --prompt-cache-key KEY   OpenAI (both formats): sent as prompt_cache_key, which routes requests
                           sharing a prefix to the same cache. Give the conversation's id, as the
                           loops do.
  --fallback-encoding ENC  Count an unknown model with o200k_base or cl100k_base (inexact).

Compression:
  --compression NAMES      Strategies to chain, comma-separated: ${STRATEGY_NAMES.join(", ")};
                           or none. Default: ${DEFAULT_COMPRESSION.join(",")}.
                           truncate-tool-results cuts a tool result (or a text) over its cap
                           (a quarter of the budget, at most 8,000 tokens) to its start and end,
                           the newest turn's too, with a marker naming what was cut.
  --summaries PATH         Persisted summary records to apply (JSON array or JSON lines).
  --summarizer NAME        For summarize: extractive (default; offline) or openai (calls
                           OPENAI_BASE_URL with OPENAI_API_KEY).
  --summarizer-model NAME  The openai summarizer's model (default gpt-4o-mini).

Output:
  --report                 Add the item-by-item report.
  --pretty                 Indent the JSON.
  --no-progress            Never draw the progress line on standard error.
  --offload-dir DIR        Write each text the build cut or cleared, whole, to DIR/<handle>.txt
                           (the handle its marker names); say on standard error how many.

Exit status: 0 built; 2 input rejected (the message names the line or index, the message id and the
field) or a budget that cannot hold the newest user turn; 1 anything else.`;

export const BUILD_USAGE = `Usage: ctxpipe build [FILE] [options]

Builds the provider request from a stored conversation and prints one JSON object:
{ request, tokenCount, tokenCountExact, includedIds, excludedIds } (and report with --report).

${SHARED}
`;

export const INSPECT_USAGE = `Usage: ctxpipe inspect [FILE] [options] [--html PATH]

Shows what the pipeline does to a stored conversation: the budget, every message's decision and the
stage and plugin that made it, the summaries, and where the prompt cache breaks compared with the
previous model call's request (the conversation before its newest assistant message). Prints a table, or writes one self-contained HTML page with --html.

  --html PATH              Write the HTML page here instead of printing the table.
  --all                    Print every row (runs of kept messages are folded otherwise).

${SHARED}
`;

export const MAIN_USAGE = `Usage: ctxpipe <command> [FILE] [options]

Commands:
  build     Print the provider request for a stored conversation, as JSON.
  inspect   Show what the pipeline did to it: a terminal table, or an HTML page with --html.

ctxpipe help <command> (or <command> --help) lists the options. ctxpipe --version prints the version.
`;
