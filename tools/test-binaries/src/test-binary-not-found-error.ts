/** Nothing usable was found where the lookup looked: the one failure the set-up step answers by installing the system package. */
export class TestBinaryNotFoundError extends Error {
  override readonly name = "TestBinaryNotFoundError";
}
