// src/tools.ts
import type { ToolDefinitionInput } from "@ctxpipe/core";

/** The tools the model may call, as build() takes them: each renderer puts them in its provider's format. */
export const TOOLS: ToolDefinitionInput[] = [
  {
    name: "read_file",
    description: "Reads a file of the ledger service repository.",
    parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  },
  {
    name: "run_tests",
    description: "Runs the test suite of one package and returns its log.",
    parameters: { type: "object", properties: { package: { type: "string" } }, required: ["package"] },
  },
];

/** Runs one tool call. Whatever happens, the model gets a text back: a failure is a result too. */
export async function runTool(name: string, argumentsJson: string): Promise<{ output: string; isError: boolean }> {
  try {
    const args = JSON.parse(argumentsJson) as Record<string, unknown>;
    if (name === "read_file" && typeof args.path === "string") return { output: await readRepositoryFile(args.path), isError: false };
    if (name === "run_tests" && typeof args.package === "string") return { output: await runTests(args.package), isError: false };
    return { output: `unknown tool or bad arguments: ${name}(${argumentsJson})`, isError: true };
  } catch (error) {
    return { output: `${name} failed: ${error instanceof Error ? error.message : String(error)}`, isError: true };
  }
}

// Stand-ins for the real thing (a file system, a test runner), so the guide runs anywhere.
async function readRepositoryFile(path: string): Promise<string> {
  const lines = [`// ${path}`, "export function roundHalfEven(minor: number): number {"];
  for (let line = 1; line <= 30; line++) lines.push(`  // step ${line}: keep amounts in minor units and round half to even`);
  return [...lines, "}"].join("\n");
}

async function runTests(pkg: string): Promise<string> {
  const lines = [`> vitest run --project ${pkg}`];
  for (let test = 1; test <= 30; test++) lines.push(`  ✓ ${pkg} posting ${test} keeps the balance in minor units (${test % 7} ms)`);
  lines.push(`  ✗ ${pkg} rounding of negative amounts: expected -2, got -3`);
  return [...lines, "Tests: 1 failed, 30 passed"].join("\n");
}
