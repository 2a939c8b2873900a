// A separate process appending to one conversation, for the multi-process test. It connects, says
// "ready", waits for "go" on stdin so that all workers start together, appends its messages in order
// (one by one or in batches), and reports each batch the database refused.
// Usage: append-worker.ts '<json WorkerPlan>'
import { PostgresStore } from "../postgres-store.js";

export interface WorkerPlan {
  readonly connectionString: string;
  readonly schema: string;
  readonly conversationId: string;
  readonly worker: number;
  /** Sizes of the successive appends; 1 appends a single message (not an array). */
  readonly batches: ReadonlyArray<number>;
  /** Ids that the test's trigger makes the database refuse; the worker expects those batches to fail. */
  readonly poisonIds: ReadonlyArray<string>;
}

const plan = JSON.parse(process.argv[2]!) as WorkerPlan;
const store = new PostgresStore({ connectionString: plan.connectionString, schema: plan.schema, migrate: false });
await store.list(); // connect before the start signal
process.stdout.write("ready\n");
await new Promise<void>((resolve) => process.stdin.once("data", () => resolve()));

let next = 0;
const refused: number[] = [];
for (const [batchIndex, size] of plan.batches.entries()) {
  const messages = Array.from({ length: size }, () => {
    const id = `w${plan.worker}-${next++}`;
    return { id: plan.poisonIds.includes(id) ? "poison" : id, role: "user" as const, content: `batch ${batchIndex}` };
  });
  try {
    await store.append(plan.conversationId, size === 1 ? messages[0]! : messages);
  } catch (error) {
    if (!messages.some((message) => message.id === "poison")) throw error;
    refused.push(batchIndex);
  }
}
await store.close();
process.stdout.write(`${JSON.stringify({ refused })}\n`);
