import { expect, test } from "vitest";
import { mergeToolPolicies } from "./merge-tool-policies.js";

test("the system level is a ceiling: allow lists given at both levels keep only shared entries, in system order", () => {
  expect(
    mergeToolPolicies(
      { allowedCategories: ["project", "fs", "network"], deniedTools: ["shell.exec"], customRules: ["Stay in the project."] },
      { allowedCategories: ["ui", "network", "fs"], deniedCategories: ["network"], allowedTools: ["fs.read", "shell.exec"], customRules: ["Stay in the project.", "Ask first."] },
    ),
  ).toEqual({
    allowedCategories: ["fs"],
    deniedCategories: ["network"],
    allowedTools: ["fs.read"],
    deniedTools: ["shell.exec"],
    customRules: ["Stay in the project.", "Ask first."],
  });
});

test("an allow list given at one level only applies as it is", () => {
  expect(mergeToolPolicies({ allowedTools: ["fs.read", "git.diff"] }, { allowedTools: [] })).toEqual({ allowedTools: ["fs.read", "git.diff"] });
  expect(mergeToolPolicies(undefined, { allowedCategories: ["fs", "fs", "ui"] })).toEqual({ allowedCategories: ["fs", "ui"] });
});

test("no policy, or only empty lists, is the empty policy", () => {
  expect(mergeToolPolicies(undefined, undefined)).toEqual({});
  expect(mergeToolPolicies({ allowedTools: [] }, { customRules: [] })).toEqual({});
});

test("a tool allowed by one level and denied by the other is denied, and nothing is left allowed", () => {
  expect(mergeToolPolicies({ allowedTools: ["fs.write"] }, { deniedTools: ["fs.write"] })).toEqual({ allowedTools: [], deniedTools: ["fs.write"] });
  expect(mergeToolPolicies({ deniedTools: ["fs.write"] }, { allowedTools: ["fs.write"] })).toEqual({ allowedTools: [], deniedTools: ["fs.write"] });
});

test("allow lists with nothing in common leave an empty allow list, not none", () => {
  expect(mergeToolPolicies({ allowedCategories: ["fs"] }, { allowedCategories: ["network"] })).toEqual({ allowedCategories: [] });
});
