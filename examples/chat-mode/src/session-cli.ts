// `tsx session-cli.ts <phase> <directory>`: one process of the example (main.ts starts two).
import { runChatSession } from "./chat-session.js";

const [phase, directory] = process.argv.slice(2);
if (phase === undefined || directory === undefined) throw new Error("usage: session-cli.ts <phase> <directory>");
await runChatSession(phase, directory, (line) => console.log(line));
