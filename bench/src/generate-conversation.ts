// A deterministic, realistic agent conversation in the stored message shape `importStoredMessages`
// reads: prose, Chinese, code, JSON tool-call arguments, 1–20 KB tool results (code, logs, JSON) and
// parallel tool calls. Text is assembled from varied fragments, not one repeated unit, because a
// tokenizer's speed (and its caches) depend on how repetitive the text is.

export interface StoredToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export interface StoredMessage {
  id: string;
  role: "user" | "assistant" | "tool";
  content: string | null;
  createdAt: string;
  tool_calls?: StoredToolCall[];
  tool_call_id?: string;
  toolName?: string;
  duration?: number;
  is_error?: boolean;
}

const SENTENCES = [
  "The build fails on CI but not locally, so the difference must be in the environment or the lockfile.",
  "I checked the cache key and it includes the Node version, which changed from 20.11 to 20.20 last week.",
  "Could you look at why the integration tests time out after the database migration?",
  "The flaky test only fails when the suite runs in parallel, which points at shared state in the fixtures.",
  "Let's keep the public API unchanged and fix the regression inside the adapter instead.",
  "The stack trace ends in the retry helper, so the original error is probably swallowed somewhere above it.",
  "We deploy from the main branch every afternoon; a hotfix has to go through the same pipeline.",
  "Memory grows by about 40 MB per thousand requests, and the heap snapshot shows retained closures.",
  "Please don't touch the generated files; they are rebuilt from the schema on every release.",
  "The customer reported that exports larger than 2 GB stop at 87% without an error message.",
  "I'd rather add a test that reproduces the bug before changing the parser.",
  "That works, but the p95 latency went from 180 ms to 410 ms after the change.",
  "Rename the option to `maxRetries` and keep the old name as a deprecated alias for one minor version.",
  "The Dockerfile copies node_modules before running the install, which defeats the layer cache.",
  "What happens to in-flight jobs when the worker receives SIGTERM during a deploy?",
  "Our staging cluster runs three replicas behind the load balancer, with sticky sessions disabled.",
];

const CHINESE = [
  "构建在持续集成上失败，但在本地成功，所以差异一定在环境或锁文件里。",
  "请帮我看看为什么数据库迁移之后集成测试会超时。",
  "这个问题只在并发运行测试时出现，说明测试夹具之间共享了状态。",
  "我们每天下午从主分支发布，紧急修复也要走同样的流水线。",
  "客户反馈导出超过两个吉字节的文件时会停在百分之八十七，而且没有任何错误提示。",
  "先写一个能复现问题的测试，再去修改解析器。",
  "内存每处理一千个请求大约增长四十兆字节，堆快照里有很多被保留的闭包。",
  "请不要修改自动生成的文件，每次发布时都会根据模式重新生成。",
  "部署期间工作进程收到终止信号时，正在处理的任务会怎样？",
  "延迟的第九十五百分位从一百八十毫秒涨到了四百一十毫秒。",
];

const WORDS = [
  "user", "order", "invoice", "session", "cache", "queue", "worker", "export", "schema", "token", "retry", "config",
  "tenant", "report", "upload", "payment", "search", "index", "migration", "webhook", "account", "metric", "batch", "lock",
];

const LOG_EVENTS = [
  "GET /api/v2/orders 200",
  "POST /api/v2/exports 202",
  "connection pool exhausted, waiting for a free client",
  "retrying request after ECONNRESET",
  "ERR_PNPM_OUTDATED_LOCKFILE Cannot install with frozen-lockfile",
  "job completed",
  "slow query detected",
  "heap used above threshold",
  "worker received SIGTERM, draining",
  "cache miss for key",
];

const LEVELS = ["INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR"] as const;

const TOOLS = ["read_file", "run_command", "search_code", "http_get", "query_database"] as const;
type ToolName = (typeof TOOLS)[number];

/** A small linear congruential generator: the same seed always gives the same conversation. */
class SeededRandom {
  #state: number;
  constructor(seed: number) {
    this.#state = seed >>> 0;
  }
  next(): number {
    this.#state = (Math.imul(this.#state, 1664525) + 1013904223) >>> 0;
    return this.#state / 2 ** 32;
  }
  /** An integer in [min, max]. */
  between(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(list: ReadonlyArray<T>): T {
    return list[Math.floor(this.next() * list.length)]!;
  }
  chance(probability: number): boolean {
    return this.next() < probability;
  }
  hex(length: number): string {
    let text = "";
    while (text.length < length) text += Math.floor(this.next() * 2 ** 32).toString(16).padStart(8, "0");
    return text.slice(0, length);
  }
}

/** Appends pieces from `piece()` until the text reaches `bytes` UTF-8 bytes (then cut at a piece). */
function fill(bytes: number, piece: () => string): string {
  const parts: string[] = [];
  let size = 0;
  while (size < bytes) {
    const next = piece();
    parts.push(next);
    size += Buffer.byteLength(next);
  }
  return parts.join("");
}

const prose = (random: SeededRandom, bytes: number) => fill(bytes, () => `${random.pick(SENTENCES)} `).trimEnd();
const chinese = (random: SeededRandom, bytes: number) => fill(bytes, () => random.pick(CHINESE));

function identifier(random: SeededRandom): string {
  const first = random.pick(WORDS);
  const second = random.pick(WORDS);
  return `${first}${second[0]!.toUpperCase()}${second.slice(1)}`;
}

function codeBlock(random: SeededRandom): string {
  const name = identifier(random);
  const type = random.pick(WORDS);
  const limit = random.between(2, 500);
  switch (random.between(0, 2)) {
    case 0:
      return `export async function ${name}(id: string, options: { retries?: number } = {}): Promise<${type[0]!.toUpperCase()}${type.slice(1)} | undefined> {\n  const retries = options.retries ?? ${random.between(1, 5)};\n  for (let attempt = 0; attempt <= retries; attempt++) {\n    const row = await db.query("SELECT * FROM ${type}s WHERE id = $1 LIMIT ${limit}", [id]);\n    if (row !== undefined) return row;\n    await sleep(${random.between(10, 2000)} * 2 ** attempt);\n  }\n  return undefined;\n}\n\n`;
    case 1:
      return `class ${name[0]!.toUpperCase()}${name.slice(1)}Cache {\n  readonly #entries = new Map<string, { value: unknown; expires: number }>();\n\n  get(key: string): unknown {\n    const entry = this.#entries.get(key);\n    if (entry === undefined || entry.expires < Date.now()) return undefined;\n    return entry.value;\n  }\n\n  set(key: string, value: unknown, ttl = ${limit * 1000}): void {\n    if (this.#entries.size >= ${limit * 10}) this.#entries.delete(this.#entries.keys().next().value!);\n    this.#entries.set(key, { value, expires: Date.now() + ttl });\n  }\n}\n\n`;
    default:
      return `test("${name} handles ${limit} ${type}s", async () => {\n  const ${type}s = Array.from({ length: ${limit} }, (_, index) => make${type[0]!.toUpperCase()}${type.slice(1)}({ index }));\n  const result = await ${name}(${type}s);\n  expect(result.failed).toEqual([]);\n  expect(result.count).toBe(${limit});\n});\n\n`;
  }
}

function logLines(random: SeededRandom, bytes: number): string {
  let time = Date.UTC(2026, 2, 2, 9, 0, 0) + random.between(0, 86_400_000);
  return fill(bytes, () => {
    time += random.between(1, 5000);
    const level = random.pick(LEVELS);
    return `${new Date(time).toISOString()} ${level.padEnd(5)} [${random.pick(WORDS)}-${random.between(1, 12)}] ${random.pick(LOG_EVENTS)} request_id=${random.hex(12)} duration_ms=${random.between(1, 9000)}\n`;
  });
}

function jsonDocument(random: SeededRandom, bytes: number): string {
  const rows: string[] = [];
  let size = 0;
  while (size < bytes) {
    const row = JSON.stringify({
      id: random.hex(16),
      name: identifier(random),
      status: random.pick(["active", "pending", "failed", "archived"]),
      path: `src/${random.pick(WORDS)}/${identifier(random)}.ts`,
      sizeBytes: random.between(100, 90_000),
      updatedAt: new Date(Date.UTC(2026, 0, 1) + random.between(0, 5e9)).toISOString(),
      tags: [random.pick(WORDS), random.pick(WORDS)],
      note: random.chance(0.15) ? random.pick(CHINESE) : random.pick(SENTENCES),
    });
    rows.push(row);
    size += Buffer.byteLength(row) + 1;
  }
  return `{"total":${rows.length},"items":[${rows.join(",")}]}`;
}

function toolArguments(random: SeededRandom, tool: ToolName): string {
  switch (tool) {
    case "read_file":
      return JSON.stringify({ path: `src/${random.pick(WORDS)}/${identifier(random)}.ts`, startLine: random.between(1, 400) });
    case "run_command":
      return JSON.stringify({ command: random.pick(["pnpm test --filter api", "git log --oneline -n 20", "docker compose logs worker", "pnpm install --frozen-lockfile"]), cwd: "/srv/app", timeoutMs: 60_000 });
    case "search_code":
      return JSON.stringify({ query: identifier(random), glob: "src/**/*.ts", maxResults: random.between(5, 50), reason: random.pick(SENTENCES) });
    case "http_get":
      return JSON.stringify({ url: `https://internal.example.com/api/v2/${random.pick(WORDS)}s/${random.hex(8)}`, headers: { accept: "application/json" } });
    case "query_database":
      return JSON.stringify({ sql: `SELECT id, status, updated_at FROM ${random.pick(WORDS)}s WHERE tenant_id = $1 ORDER BY updated_at DESC LIMIT ${random.between(10, 200)}`, params: [random.hex(8)] });
  }
}

/** A tool result of 1–20 KB whose kind follows the tool: code, logs or JSON. */
function toolResult(random: SeededRandom, tool: ToolName): string {
  // Log-uniform, so small results are more common than large ones (mean ≈ 6 KB), as in real agent runs.
  const bytes = Math.round(1000 * 19 ** random.next());
  switch (tool) {
    case "read_file":
    case "search_code":
      return fill(bytes, () => codeBlock(random));
    case "run_command":
      return logLines(random, bytes);
    case "http_get":
    case "query_database":
      return jsonDocument(random, bytes);
  }
}

function userText(random: SeededRandom): string {
  const kind = random.next();
  if (kind < 0.6) return prose(random, random.between(80, 900));
  if (kind < 0.85) return chinese(random, random.between(60, 600));
  // A pasted error: prose, then a log excerpt.
  return `${prose(random, random.between(60, 300))}\n\n\`\`\`\n${logLines(random, random.between(300, 1500))}\`\`\``;
}

function answerText(random: SeededRandom): string {
  const text = random.chance(0.2) ? chinese(random, random.between(200, 1200)) : prose(random, random.between(200, 1800));
  return random.chance(0.35) ? `${text}\n\n\`\`\`ts\n${codeBlock(random)}\`\`\`` : text;
}

/** `count` messages: user turns, then rounds of (parallel) tool calls and their results, then an answer. */
export function generateConversation(count: number, seed = 42): StoredMessage[] {
  const random = new SeededRandom(seed);
  const messages: StoredMessage[] = [];
  const start = Date.UTC(2026, 0, 1);
  const stamp = () => ({ id: `m${messages.length}`, createdAt: new Date(start + messages.length * 1000).toISOString() });
  let callNumber = 0;

  while (messages.length < count) {
    messages.push({ ...stamp(), role: "user", content: userText(random) });
    for (let round = random.between(0, 3); round > 0; round--) {
      // A round needs the call message and every result; with fewer slots left, answer instead.
      const calls = random.chance(0.35) ? random.between(2, 4) : 1;
      if (count - messages.length < calls + 2) break;
      const tools = Array.from({ length: calls }, () => random.pick(TOOLS));
      const toolCalls = tools.map((tool) => ({ id: `call_${callNumber++}`, type: "function" as const, function: { name: tool, arguments: toolArguments(random, tool) } }));
      const lead = random.chance(0.4) ? prose(random, random.between(40, 300)) : null;
      messages.push({ ...stamp(), role: "assistant", content: lead, tool_calls: toolCalls });
      toolCalls.forEach((call, position) => {
        const tool = tools[position]!;
        const failed = random.chance(0.05);
        const content = failed ? `Error: ${random.pick(LOG_EVENTS)}\n${logLines(random, random.between(1000, 3000))}` : toolResult(random, tool);
        messages.push({ ...stamp(), role: "tool", content, tool_call_id: call.id, toolName: tool, duration: random.between(5, 4000), ...(failed ? { is_error: true } : {}) });
      });
    }
    if (messages.length < count) messages.push({ ...stamp(), role: "assistant", content: answerText(random) });
  }
  return messages;
}
