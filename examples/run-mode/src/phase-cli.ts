// `tsx phase-cli.ts <directory> <phase as JSON>`: one process of the example (main.ts starts three).
import { runPhase } from "./run-session.js";

const [directory, phase] = process.argv.slice(2);
if (directory === undefined || phase === undefined) throw new Error("usage: phase-cli.ts <directory> <phase JSON>");
await runPhase(directory, JSON.parse(phase), (line) => console.log(line));
