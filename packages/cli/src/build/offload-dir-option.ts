// `--offload-dir DIR` (or `--offload-dir=DIR`) of build and inspect, taken off the command line before
// the other options are read. "--" ends the options, as for parseArgs.
import { CliUsageError } from "../cli/cli-usage-error.js";

const FLAG = "--offload-dir";

export function takeOffloadDir(argv: ReadonlyArray<string>): { readonly argv: string[]; readonly offloadDir: string | undefined } {
  const command = argv[0];
  if (command !== "build" && command !== "inspect") return { argv: [...argv], offloadDir: undefined };
  const rest: string[] = [];
  let offloadDir: string | undefined;
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] as string;
    if (arg === "--") {
      rest.push(...argv.slice(index));
      break;
    }
    let value: string | undefined;
    if (arg === FLAG) {
      value = argv[++index];
      if (value === undefined || value.startsWith("--")) throw new CliUsageError(`${FLAG} needs the directory to write offloaded texts to.`, command);
    } else if (arg.startsWith(`${FLAG}=`)) {
      value = arg.slice(FLAG.length + 1);
    } else {
      rest.push(arg);
      continue;
    }
    if (value === "") throw new CliUsageError(`${FLAG} needs the directory to write offloaded texts to.`, command);
    if (offloadDir !== undefined && offloadDir !== value) throw new CliUsageError(`${FLAG} is given twice (${offloadDir}, ${value}): give one directory.`, command);
    offloadDir = value;
  }
  return { argv: rest, offloadDir };
}
