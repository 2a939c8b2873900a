// composeSystemPrompt: the sections joined by `---`, exactly the text the pipeline sends
// when no other plugin adds system parts.
import type { ComposeOptions } from "./compose-system-sections.js";
import { composeSystemSections } from "./compose-system-sections.js";
import type { SystemPromptInput } from "./input/system-prompt-input.js";
import { SECTION_SEPARATOR } from "./section-separator.js";

export function composeSystemPrompt(input: SystemPromptInput, options: ComposeOptions = {}): string {
  return composeSystemSections(input, options)
    .map((section) => section.text)
    .join(SECTION_SEPARATOR);
}
