// What a workflow engine of the caller's says at the start of each turn: where the run stands (either
// run-context shape), and optionally the step's agent, tool policy and tools. Checked before the turn is
// built, so a fault names the field instead of surfacing as a prompt error later.
import type { StoredMessage } from "@ctxpipe/store";
import { CtxpipeError } from "@ctxpipe/core";
import { type AgentInfo, agentInfoSchema, type RunContext, type RunContextInput, readRunContext, type ToolPolicyConfig, toolPolicyConfigSchema } from "@ctxpipe/system-prompt";
import { z } from "zod";
import { RunTurnError } from "./run-turn-error.js";

/** What the engine is given at the start of every turn. */
export interface RunTurnInput {
  readonly runId: string;
  /** The run's log as it stands, the user input and the last turn's tool results included. */
  readonly messages: ReadonlyArray<StoredMessage>;
  /** The turn of this continue() call, from 0. */
  readonly turn: number;
}

export interface RunTurn {
  /** Where the run stands: nested (`currentStep`) or flat (`currentStepId`, `currentStepName`, `stepInstruction`). */
  readonly runContext: RunContextInput;
  /** This step's agent, replacing the loop's. */
  readonly agent?: AgentInfo;
  /** This step's agent-level tool policy, replacing the loop's; merged with the system-level one, a deny winning. */
  readonly toolPolicy?: ToolPolicyConfig;
  /** Names of the loop's tools this step may use; without it, every tool the policy allows. */
  readonly tools?: ReadonlyArray<string>;
}

/** A workflow engine of the caller's: asked at the start of every turn where the run stands. */
export type RunEngine = (input: RunTurnInput) => RunTurn | Promise<RunTurn>;

/** A turn as the loop uses it: the run context read into the nested shape. */
export interface ParsedRunTurn {
  readonly runContext: RunContext;
  readonly agent?: AgentInfo;
  readonly toolPolicy?: ToolPolicyConfig;
  readonly tools?: ReadonlyArray<string>;
}

const turnSchema = z.strictObject({
  runContext: z.unknown(),
  agent: agentInfoSchema.optional(),
  toolPolicy: toolPolicyConfigSchema.optional(),
  tools: z.array(z.string()).optional(),
});

const fieldOf = (path: ReadonlyArray<PropertyKey>) => path.reduce<string>((text, key) => (typeof key === "number" ? `${text}[${key}]` : text === "" ? String(key) : `${text}.${String(key)}`), "");

export function readRunTurn(value: unknown, where: { runId: string; turn: number; toolNames: ReadonlyArray<string> }): ParsedRunTurn {
  const problems: Array<{ field: string; message: string }> = [];
  const fail = () => new RunTurnError(where.runId, where.turn, problems);
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    problems.push({ field: "(turn)", message: `expected { runContext, agent?, toolPolicy?, tools? }, got ${value === null ? "null" : Array.isArray(value) ? "an array" : typeof value}` });
    throw fail();
  }
  const parsed = turnSchema.safeParse(value);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      if (issue.code === "unrecognized_keys") for (const key of issue.keys) problems.push({ field: fieldOf([...issue.path, key]), message: "not a field of a run turn" });
      else problems.push({ field: fieldOf(issue.path), message: issue.message });
    }
  }
  let runContext: RunContext | undefined;
  const given = (value as { runContext?: unknown }).runContext;
  if (given === undefined) {
    problems.push({ field: "runContext", message: "required: where the run stands, nested (currentStep) or flat (currentStepId, currentStepName, stepInstruction)" });
  } else {
    try {
      runContext = readRunContext(given);
    } catch (error) {
      // The system prompt's reader names the fields (SystemPromptInputError); anything else is not a validation fault.
      const fields = CtxpipeError.isInstance(error) ? (error as { fields?: unknown }).fields : undefined;
      if (!Array.isArray(fields)) throw error;
      const details = (error as Error).message.split("\n").slice(1).join(" ").trim();
      for (const field of fields as string[]) problems.push({ field, message: details });
    }
  }
  const tools = parsed.success ? parsed.data.tools : undefined;
  tools?.forEach((name, index) => {
    if (!where.toolNames.includes(name)) problems.push({ field: `tools[${index}]`, message: `no tool of the loop is named ${JSON.stringify(name)} (its tools: ${where.toolNames.join(", ") || "none"})` });
  });
  if (problems.length > 0 || !parsed.success || runContext === undefined) throw fail();
  const { agent, toolPolicy } = parsed.data;
  return { runContext, ...(agent === undefined ? {} : { agent: agent as AgentInfo }), ...(toolPolicy === undefined ? {} : { toolPolicy: toolPolicy as ToolPolicyConfig }), ...(tools === undefined ? {} : { tools }) };
}
