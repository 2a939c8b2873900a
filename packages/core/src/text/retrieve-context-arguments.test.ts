import { describe, expect, test } from "vitest";
import { retrieveContextArguments } from "./retrieve-context-arguments.js";
import { RETRIEVE_CONTEXT_PARAMETERS } from "./retrieve-context-definition.js";

const HANDLE = "ctx_0123456789abcdef";

describe("retrieveContextArguments", () => {
  test.for([
    { name: "a handle alone", args: { handle: HANDLE }, expected: { handle: HANDLE } },
    { name: "a handle and a range", args: { handle: HANDLE, from: 0, to: 12 }, expected: { handle: HANDLE, from: 0, to: 12 } },
  ])("$name is accepted as it is", ({ args, expected }) => {
    expect(retrieveContextArguments(args)).toStrictEqual(expected);
  });

  test.for([
    { name: "nothing", args: undefined, message: '"handle" must be the handle a marker names (a string such as "ctx_0123456789abcdef")' },
    { name: "no handle", args: { from: 3 }, message: '"handle" must be the handle a marker names (a string such as "ctx_0123456789abcdef")' },
    { name: "an empty handle", args: { handle: "" }, message: '"handle" must be the handle a marker names (a string such as "ctx_0123456789abcdef")' },
    { name: "a negative from", args: { handle: HANDLE, from: -1 }, message: '"from" must be a whole number of at least 0, got -1' },
    { name: "a fractional to", args: { handle: HANDLE, to: 2.5 }, message: '"to" must be a whole number of at least 0, got 2.5' },
    { name: "from as a string", args: { handle: HANDLE, from: "10" }, message: '"from" must be a whole number of at least 0, got "10"' },
  ])("$name is an error naming the argument and what it must be", ({ args, message }) => {
    expect(() => retrieveContextArguments(args)).toThrow(new Error(message));
  });
});

describe("RETRIEVE_CONTEXT_PARAMETERS", () => {
  test("requires handle and cannot be changed by one integration for the others", () => {
    expect(RETRIEVE_CONTEXT_PARAMETERS.required).toStrictEqual(["handle"]);
    expect(Object.keys(RETRIEVE_CONTEXT_PARAMETERS.properties)).toStrictEqual(["handle", "from", "to"]);
    expect(() => {
      (RETRIEVE_CONTEXT_PARAMETERS.properties.from as { minimum: number }).minimum = 5;
    }).toThrow(TypeError);
  });
});
