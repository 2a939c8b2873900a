// The executable as a shell runs it: a real Node process, its exit status and its two streams.
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AGENT_CONVERSATION } from "./__fixtures__/conversations.js";
import { jsonl } from "./__fixtures__/run-in-process.js";

const bin = fileURLToPath(new URL("./bin.ts", import.meta.url));

function ctxpipe(args: ReadonlyArray<string>, stdin?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "--conditions=@ctxpipe/source", bin, ...args], { stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin ?? "");
  });
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "ctxpipe-bin-"));
  await writeFile(join(dir, "c.jsonl"), jsonl(AGENT_CONVERSATION));
  await writeFile(join(dir, "bad.jsonl"), jsonl([...AGENT_CONVERSATION.slice(0, 4), { id: "u2", role: "user", content: 42 }]));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("the ctxpipe executable", { timeout: 60_000 }, () => {
  it("exits 0 and prints the JSON for a file, and for standard input", async () => {
    const fromFile = await ctxpipe(["build", join(dir, "c.jsonl")]);
    expect(fromFile.code).toBe(0);
    expect(fromFile.stderr).toBe("");
    expect(JSON.parse(fromFile.stdout).includedIds).toEqual(AGENT_CONVERSATION.map((message) => message.id));
    const piped = await ctxpipe(["build"], await readFile(join(dir, "c.jsonl"), "utf8"));
    expect(piped).toEqual(fromFile);
  });

  it("exits 2 for rejected input, with the message on standard error only", async () => {
    const run = await ctxpipe(["build", join(dir, "bad.jsonl")]);
    expect(run).toMatchObject({ code: 2, stdout: "" });
    expect(run.stderr).toMatch(new RegExp(`^ctxpipe: ${join(dir, "bad.jsonl")} line 5 \\(id "u2"\\), field content: expected a string.*, got 42\n$`));
  });

  it("exits 2 for a bad command line and 1 for a file it cannot read", async () => {
    expect((await ctxpipe(["build", "--provider", "cohere"])).code).toBe(2);
    expect(await ctxpipe(["inspect", join(dir, "missing.jsonl")])).toEqual({ code: 1, stdout: "", stderr: `ctxpipe: Cannot read ${join(dir, "missing.jsonl")}: no such file\n` });
  });

  it("prints its version and its help", async () => {
    const manifest = JSON.parse(await readFile(new URL("../package.json", import.meta.url), "utf8"));
    expect(await ctxpipe(["--version"])).toEqual({ code: 0, stdout: `${manifest.version}\n`, stderr: "" });
    const help = await ctxpipe(["build", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: ctxpipe build \[FILE\] \[options\]/);
  });
});
