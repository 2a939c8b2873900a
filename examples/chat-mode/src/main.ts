// `pnpm --filter @ctxpipe-example/chat-mode start [directory]`: two processes, one after the other,
// talk in the same conversation. The second knows only what the JSON-lines log in <directory> says.
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const directory = process.argv[2] ?? mkdtempSync(join(tmpdir(), "ctxpipe-chat-mode-"));
const sessionCli = fileURLToPath(new URL("./session-cli.ts", import.meta.url));
console.log(`Conversation log: ${directory}`);
for (const phase of ["first", "second"]) {
  console.log("");
  // A new Node process each time, started the way this one was (tsx's loader included).
  const child = spawnSync(process.execPath, [...process.execArgv, sessionCli, phase, directory], { stdio: "inherit" });
  if (child.status !== 0) process.exit(child.status ?? 1);
}
