import { expect, test } from "vitest";
import { PieceCountCache } from "./piece-count-cache.js";

test("finds a piece by its range in another text", () => {
  const cache = new PieceCountCache();
  cache.set("hello", 2);
  cache.set("héllo", 3);
  expect(cache.get("say hello!", 4, 9)).toBe(2);
  expect(cache.get("say héllo!", 4, 9)).toBe(3);
  expect(cache.get("say hellO!", 4, 9)).toBe(-1);
  expect(cache.get("hell", 0, 4)).toBe(-1);
});

test("starts over when full, and keeps working", () => {
  const cache = new PieceCountCache();
  const total = 100_000;
  for (let index = 0; index < total; index++) cache.set(`piece-${index}`, index % 7);
  const last = `piece-${total - 1}`;
  expect(cache.get(last, 0, last.length)).toBe((total - 1) % 7);
  expect(cache.get("piece-0", 0, 7)).toBe(-1);
});
