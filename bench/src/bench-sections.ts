// BENCH_SECTIONS: which numbered sections of `pnpm bench` to run, e.g. "9,10" or "3-5,9"; unset or
// empty runs them all.

export class BenchSectionsError extends Error {
  override readonly name = "BenchSectionsError";
}

/**
 * The sections `value` names, out of `known`. Undefined or blank: every known section. Numbers and
 * ranges ("a-b") separated by commas; anything else, or a section that does not exist, is an error
 * naming the part, so a typo never runs nothing in silence.
 */
export function benchSections(value: string | undefined, known: ReadonlyArray<number>): ReadonlySet<number> {
  if (value === undefined || value.trim() === "") return new Set(known);
  const selected = new Set<number>();
  for (const [index, raw] of value.split(",").entries()) {
    const part = raw.trim();
    const range = /^(\d+)(?:\s*-\s*(\d+))?$/.exec(part);
    if (range === null) throw new BenchSectionsError(`BENCH_SECTIONS[${index}]: "${part}" is not a section number or a range like 9-12`);
    const from = Number(range[1]);
    const to = range[2] === undefined ? from : Number(range[2]);
    if (to < from) throw new BenchSectionsError(`BENCH_SECTIONS[${index}]: the range "${part}" runs backwards`);
    for (let section = from; section <= to; section++) {
      if (!known.includes(section)) throw new BenchSectionsError(`BENCH_SECTIONS[${index}]: there is no section ${section} (sections: ${known.join(", ")})`);
      selected.add(section);
    }
  }
  return selected;
}
