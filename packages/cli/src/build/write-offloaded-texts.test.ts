import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { contentHandle } from "@ctxpipe/core";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { CliUsageError } from "../cli/cli-usage-error.js";
import { takeOffloadDir } from "./offload-dir-option.js";
import { writeOffloadedTexts } from "./write-offloaded-texts.js";

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "ctxpipe-offload-"));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const offloaded = (text: string, itemId = "t1") => ({ handle: contentHandle(text), itemId, text, chars: text.length });

describe("writeOffloadedTexts", () => {
  test("writes each text whole to DIR/<handle>.txt, creating DIR, and leaves no temporary file", async () => {
    const big = `${"line of a build log\n".repeat(100_000)}😀 end`;
    const target = join(directory, "nested", "offloaded");
    expect(await writeOffloadedTexts(target, [offloaded(big), offloaded("small", "t2")])).toStrictEqual({ written: 2, kept: 0 });
    expect((await readdir(target)).sort()).toStrictEqual([`${contentHandle(big)}.txt`, `${contentHandle("small")}.txt`].sort());
    expect(await readFile(join(target, `${contentHandle(big)}.txt`), "utf8")).toBe(big);
  });

  test("a file already there is kept as it is", async () => {
    const path = join(directory, `${contentHandle("text")}.txt`);
    await writeFile(path, "written by an earlier build");
    expect(await writeOffloadedTexts(directory, [offloaded("text"), offloaded("other")])).toStrictEqual({ written: 1, kept: 1 });
    expect(await readFile(path, "utf8")).toBe("written by an earlier build");
  });

  test("a handle that is not a content handle is refused, naming the directory", async () => {
    await expect(writeOffloadedTexts(directory, [{ handle: "../escape", itemId: "t", text: "x", chars: 1 }])).rejects.toThrow(
      `Cannot write offloaded texts to ${directory}: the handle "../escape" is not a content handle`,
    );
    expect(await readdir(directory)).toStrictEqual([]);
  });
});

describe("takeOffloadDir", () => {
  test.for([
    { argv: ["build", "c.jsonl", "--offload-dir", "out"], expected: { argv: ["build", "c.jsonl"], offloadDir: "out" } },
    { argv: ["inspect", "--offload-dir=out", "c.jsonl", "--all"], expected: { argv: ["inspect", "c.jsonl", "--all"], offloadDir: "out" } },
    { argv: ["build", "c.jsonl"], expected: { argv: ["build", "c.jsonl"], offloadDir: undefined } },
    { argv: ["build", "--", "--offload-dir"], expected: { argv: ["build", "--", "--offload-dir"], offloadDir: undefined } },
    { argv: ["--help", "--offload-dir", "x"], expected: { argv: ["--help", "--offload-dir", "x"], offloadDir: undefined } },
  ])("$argv", ({ argv, expected }) => {
    expect(takeOffloadDir(argv)).toStrictEqual(expected);
  });

  test.for([
    { argv: ["build", "c.jsonl", "--offload-dir"], message: "--offload-dir needs the directory to write offloaded texts to." },
    { argv: ["build", "--offload-dir", "--pretty"], message: "--offload-dir needs the directory to write offloaded texts to." },
    { argv: ["build", "--offload-dir="], message: "--offload-dir needs the directory to write offloaded texts to." },
    { argv: ["inspect", "--offload-dir", "a", "--offload-dir=b"], message: "--offload-dir is given twice (a, b): give one directory." },
  ])("$argv is a usage error", ({ argv, message }) => {
    expect(() => takeOffloadDir(argv)).toThrow(new CliUsageError(message, argv[0] as "build"));
  });
});
