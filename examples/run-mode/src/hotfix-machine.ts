// A workflow engine of the example's own: a small state machine for a hotfix (triage → patch → review →
// deploy → done) that keeps its state in a JSON file of its own, as a real engine keeps it in its own
// database. Tools move it (reading the ticket, writing the patch, deploying); the user's approval moves
// it out of review. RunLoop asks it where the run stands at the start of every turn (`turn()`).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import type { RunTurn, RunTurnInput } from "@ctxpipe/loop";

export type HotfixStateName = "triage" | "patch" | "review" | "deploy" | "done";

interface HotfixState {
  readonly state: HotfixStateName;
  readonly completed: ReadonlyArray<HotfixStateName>;
  readonly variables: Readonly<Record<string, unknown>>;
  readonly artifacts: ReadonlyArray<string>;
  /** The user messages already read, so that one approval moves the machine once. */
  readonly seenUserInput: ReadonlyArray<string>;
}

const STEPS: Record<Exclude<HotfixStateName, "done">, { name: string; instruction: string; tools: string[] }> = {
  triage: { name: "Triage", instruction: "Read the ticket and find the failing code path.", tools: ["read_ticket"] },
  patch: { name: "Patch", instruction: "Write the smallest patch that fixes the ticket.", tools: ["write_patch"] },
  review: { name: "Review", instruction: "Show the patch and wait for the user's approval. Do not deploy.", tools: [] },
  deploy: { name: "Deploy", instruction: "Deploy the approved patch.", tools: ["deploy"] },
};

const reviewer = { id: "reviewer", name: "Reviewer", role: "Code reviewer who waits for a human approval" };

export class HotfixMachine {
  readonly #file: string;

  constructor(file: string, ticket: string) {
    this.#file = file;
    if (!existsSync(file)) this.#save({ state: "triage", completed: [], variables: { ticket, attempts: 0 }, artifacts: [], seenUserInput: [] });
  }

  get current(): HotfixState {
    return JSON.parse(readFileSync(this.#file, "utf8")) as HotfixState;
  }

  /** Moves from `from` to `to` (only from `from`: a tool called on the wrong step moves nothing). */
  advance(from: HotfixStateName, to: HotfixStateName, change: { variables?: Record<string, unknown>; artifact?: string } = {}): boolean {
    const now = this.current;
    if (now.state !== from) return false;
    this.#save({
      ...now,
      state: to,
      completed: [...now.completed, from],
      variables: { ...now.variables, ...change.variables },
      artifacts: change.artifact === undefined ? now.artifacts : [...now.artifacts, change.artifact],
    });
    return true;
  }

  /** RunLoop's engine: reads new user input (an approval moves review on), then says where the run stands. */
  turn(input: RunTurnInput): RunTurn {
    const now = this.current;
    const fresh = input.messages.filter((message) => message.role === "user" && !now.seenUserInput.includes(message.id));
    if (fresh.length > 0) {
      this.#save({ ...now, seenUserInput: [...now.seenUserInput, ...fresh.map((message) => message.id)] });
      if (fresh.some((message) => /\bapprove/i.test(String(message.content)))) this.advance("review", "deploy", { variables: { approvedBy: "user" } });
    }
    const { state, completed, variables, artifacts } = this.current;
    const common = { packageName: "ops-playbooks", workflowName: "hotfix", state: { stepsCompleted: completed, variables, artifacts } };
    // Done: the post-completion profile, and no tools (the final answer only reports).
    if (state === "done") return { runContext: { ...common, status: "completed" }, tools: [] };
    const step = STEPS[state];
    return {
      runContext: { ...common, currentStepId: state, currentStepName: step.name, stepInstruction: step.instruction },
      tools: step.tools,
      // The review step speaks as a reviewer, who may not deploy whatever the tool list says.
      ...(state === "review" ? { agent: reviewer, toolPolicy: { deniedTools: ["deploy", "write_patch"] } } : {}),
    };
  }

  #save(state: HotfixState): void {
    writeFileSync(this.#file, `${JSON.stringify(state, null, 2)}\n`);
  }
}
