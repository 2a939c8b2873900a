import { mergeToolPolicies } from "@ctxpipe/system-prompt";
import { describe, expect, it } from "vitest";
import { isToolAllowed, toolsAllowedBy } from "./tools-allowed-by.js";

const tools = [
  { name: "read_file", category: "fs" },
  { name: "write_file", category: "fs" },
  { name: "open_panel", category: "ui" },
  { name: "run_shell", category: "system" },
  { name: "now" },
];
const names = (policy: Parameters<typeof toolsAllowedBy>[1]) => toolsAllowedBy(tools, policy).map((tool) => tool.name);

describe("toolsAllowedBy", () => {
  it("allows everything when the policy restricts nothing", () => {
    expect(names({})).toEqual(["read_file", "write_file", "open_panel", "run_shell", "now"]);
  });

  it("denies by name and by category", () => {
    expect(names({ deniedTools: ["write_file"], deniedCategories: ["system"] })).toEqual(["read_file", "open_panel", "now"]);
  });

  it("with allow lists, passes a tool whose name or category is allowed, and nothing else", () => {
    expect(names({ allowedCategories: ["fs"] })).toEqual(["read_file", "write_file"]);
    expect(names({ allowedCategories: ["ui"], allowedTools: ["now"] })).toEqual(["open_panel", "now"]);
    // An empty allow list, which the merge leaves when the levels share nothing, allows nothing.
    expect(names({ allowedTools: [] })).toEqual([]);
  });

  it("a deny wins over an allow at either level (merged policy)", () => {
    const policy = mergeToolPolicies({ allowedCategories: ["fs", "ui"], deniedTools: ["write_file"] }, { allowedCategories: ["fs"], deniedCategories: ["ui"] });
    expect(names(policy)).toEqual(["read_file"]);
    expect(isToolAllowed({ name: "write_file", category: "fs" }, { allowedTools: ["write_file"], deniedTools: ["write_file"] })).toBe(false);
  });
});
