import { expect, test } from "vitest";
import { mergeToolPolicies } from "./merge-tool-policies.js";

test("system entries come first, the agent's follow, duplicates once; a deny at either level removes the allow", () => {
  expect(
    mergeToolPolicies(
      { allowedCategories: ["fs", "project"], deniedTools: ["shell.exec"], customRules: ["Stay in the project."] },
      { allowedCategories: ["ui", "fs", "network"], deniedCategories: ["network"], allowedTools: ["fs.read", "shell.exec"], customRules: ["Stay in the project.", "Ask first."] },
    ),
  ).toEqual({
    allowedCategories: ["fs", "project", "ui"],
    deniedCategories: ["network"],
    allowedTools: ["fs.read"],
    deniedTools: ["shell.exec"],
    customRules: ["Stay in the project.", "Ask first."],
  });
});

test("no policy, or only empty lists, is the empty policy", () => {
  expect(mergeToolPolicies(undefined, undefined)).toEqual({});
  expect(mergeToolPolicies({ allowedTools: [] }, { customRules: [] })).toEqual({});
});

test("a tool allowed by one level and denied by the other is denied", () => {
  expect(mergeToolPolicies({ allowedTools: ["fs.write"] }, { deniedTools: ["fs.write"] })).toEqual({ deniedTools: ["fs.write"] });
  expect(mergeToolPolicies({ deniedTools: ["fs.write"] }, { allowedTools: ["fs.write"] })).toEqual({ deniedTools: ["fs.write"] });
});
