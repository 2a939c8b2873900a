import type { SessionMode } from "../input/session-mode.js";

/** `# Mode: CHAT`, `# Mode: AGENT` or `# Mode: RUN`. */
export function modeSection(mode: SessionMode): string {
  return `# Mode: ${mode.toUpperCase()}`;
}
