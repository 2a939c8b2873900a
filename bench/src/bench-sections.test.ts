import { expect, test } from "vitest";
import { BenchSectionsError, benchSections } from "./bench-sections.js";

const known = [1, 2, 3, 9, 10, 11];

test.for([
  { value: undefined, expected: [1, 2, 3, 9, 10, 11] },
  { value: "", expected: [1, 2, 3, 9, 10, 11] },
  { value: "  ", expected: [1, 2, 3, 9, 10, 11] },
  { value: "3", expected: [3] },
  { value: "3,9", expected: [3, 9] },
  { value: " 9 , 3 ,9", expected: [9, 3] },
  { value: "9-11", expected: [9, 10, 11] },
  { value: "1-3,10", expected: [1, 2, 3, 10] },
])("BENCH_SECTIONS=$value runs $expected", ({ value, expected }) => {
  expect([...benchSections(value, known)]).toEqual(expected);
});

test.for([
  { value: "3,x", message: 'BENCH_SECTIONS[1]: "x" is not a section number or a range like 9-12' },
  { value: "3,,9", message: 'BENCH_SECTIONS[1]: "" is not a section number or a range like 9-12' },
  { value: "7", message: "BENCH_SECTIONS[0]: there is no section 7 (sections: 1, 2, 3, 9, 10, 11)" },
  { value: "3-9", message: "BENCH_SECTIONS[0]: there is no section 4 (sections: 1, 2, 3, 9, 10, 11)" },
  { value: "11-9", message: 'BENCH_SECTIONS[0]: the range "11-9" runs backwards' },
])("BENCH_SECTIONS=$value is an error naming the part", ({ value, message }) => {
  expect(() => benchSections(value, known)).toThrow(new BenchSectionsError(message));
});
