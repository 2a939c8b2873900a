// The agent and tool policy a workflow step or an engine's turn may set, checked as the system prompt
// checks them (strict objects, so a misspelt field is named) before the loop filters tools with them.
import { z } from "zod";

const name = z.string().min(1, "must not be empty");
const names = z.array(name);

export const agentSchema = z.strictObject({
  id: name,
  name,
  role: name,
  identity: z.string().optional(),
  communicationStyle: z.string().optional(),
  principles: z.array(z.string()).optional(),
  systemPrompt: z.string().optional(),
});

export const toolPolicySchema = z.strictObject({
  allowedCategories: names.optional(),
  deniedCategories: names.optional(),
  allowedTools: names.optional(),
  deniedTools: names.optional(),
  customRules: z.array(z.string()).optional(),
});
