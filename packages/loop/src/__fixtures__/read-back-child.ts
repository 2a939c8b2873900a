// A separate process for the offload test (run with: node --import tsx --conditions=@ctxpipe/source
// read-back-child.ts <directory> <conversationId> <handle> <from> <to>): a new loop on the JSON-lines
// store asks retrieve_context for the range and prints the tool's reply as JSON on standard output.
import { JsonlStore } from "@ctxpipe/store";
import { ChatLoop } from "../chat/chat-loop.js";
import { scriptedModel } from "../model/scripted-model.js";

const [directory, conversationId, handle, from, to] = process.argv.slice(2) as [string, string, string, string, string];
const model = scriptedModel([{ toolCalls: [{ name: "retrieve_context", arguments: { handle, from: Number(from), to: Number(to) } }] }, { text: "Read." }], { model: "gpt-4o-mini" });
const store = new JsonlStore({ directory });
const result = await new ChatLoop({ model, store, buildOptions: { maxTokens: 16_000 } }).send({ conversationId, userInput: "Read that range again." });
await store.close();
const reply = result.persisted.find((message) => message.role === "tool");
const firstRequest = model.calls[0]?.request as { tools?: Array<{ function: { name: string } }> } | undefined;
const offered = (firstRequest?.tools ?? []).map((tool) => tool.function.name);
process.stdout.write(`${JSON.stringify({ status: result.status, reply: reply?.content, offered })}\n`);
