import { spawnSync } from "node:child_process";

export interface CommandResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command to completion without a shell; output is captured for assertions and messages. */
export function runCommand(command: string, args: readonly string[], cwd: string): CommandResult {
  const result = spawnSync(command, args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0", TURBO_TELEMETRY_DISABLED: "1" },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Like runCommand, but a non-zero exit throws with the command's output in the message. */
export function runOrThrow(command: string, args: readonly string[], cwd: string): CommandResult {
  const result = runCommand(command, args, cwd);
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(" ")} (in ${cwd}) exited with ${result.status}\n${result.stdout}\n${result.stderr}`,
    );
  }
  return result;
}
