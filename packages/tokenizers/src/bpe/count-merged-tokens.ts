// Byte-pair merging, counted rather than encoded: how many tokens a piece of `length` bytes becomes
// when the lowest-ranked adjacent pair is merged first (leftmost on ties), exactly as tiktoken does.
// Short pieces use tiktoken's own quadratic scan, which is fastest for them; long ones (a run of
// letters or punctuation with no break, e.g. a minified blob) use a heap so they cost n log n.

/** Rank of the bytes [start, end) of the piece, or undefined when they are not a token. */
export type RankOf = (start: number, end: number) => number | undefined;

const NO_RANK = 0x7fffffff;
/** Above this many bytes the heap wins over the scan (measured on runs of letters and CJK text). */
const LONG_PIECE = 96;

export function countMergedTokens(length: number, rankOf: RankOf): number {
  if (length < 2) return length;
  return length > LONG_PIECE ? countMergedTokensWithHeap(length, rankOf) : countMergedTokensByScan(length, rankOf);
}

/** tiktoken's algorithm: scan for the lowest rank after every merge. O(n²), fast for short pieces. */
export function countMergedTokensByScan(length: number, rankOf: RankOf): number {
  if (length < 2) return length;
  // starts[i] is where part i begins; ranks[i] ranks the pair (part i, part i + 1).
  const starts = new Int32Array(length + 1);
  const ranks = new Int32Array(length);
  for (let index = 0; index <= length; index++) starts[index] = index;
  for (let index = 0; index < length - 1; index++) ranks[index] = rankOf(index, index + 2) ?? NO_RANK;
  ranks[length - 1] = NO_RANK;
  let parts = length;
  while (parts > 1) {
    let lowest = NO_RANK;
    let at = -1;
    for (let index = 0; index < parts - 1; index++) {
      const rank = ranks[index]!;
      if (rank < lowest) {
        lowest = rank;
        at = index;
      }
    }
    if (at < 0) break;
    // Merge part `at` with the next one: drop the next start and the next pair's rank.
    starts.copyWithin(at + 1, at + 2, parts + 1);
    ranks.copyWithin(at, at + 1, parts);
    parts--;
    ranks[at] = at + 1 < parts ? (rankOf(starts[at]!, starts[at + 2]!) ?? NO_RANK) : NO_RANK;
    if (at > 0) ranks[at - 1] = rankOf(starts[at - 1]!, starts[at + 1]!) ?? NO_RANK;
  }
  return parts;
}

// Heap entries pack (rank, start) into one number: rank first, then position, so the smallest entry
// is the lowest rank and, among equal ranks, the leftmost pair.
const POSITION_RANGE = 2 ** 32;

/** The same merges in the same order, with the pairs in a heap: O(n log n). */
export function countMergedTokensWithHeap(length: number, rankOf: RankOf): number {
  if (length < 2) return length;
  // Parts form a linked list over their start offsets; end[start] is where the part ends.
  const next = new Int32Array(length + 1);
  const previous = new Int32Array(length + 1);
  const pairRank = new Int32Array(length);
  for (let start = 0; start <= length; start++) {
    next[start] = start + 1;
    previous[start] = start - 1;
  }
  const heap: number[] = [];
  for (let start = 0; start < length - 1; start++) {
    const rank = rankOf(start, start + 2) ?? NO_RANK;
    pairRank[start] = rank;
    if (rank !== NO_RANK) heapPush(heap, rank * POSITION_RANGE + start);
  }
  pairRank[length - 1] = NO_RANK;
  let parts = length;
  while (heap.length > 0) {
    const entry = heapPop(heap);
    const start = entry % POSITION_RANGE;
    const rank = (entry - start) / POSITION_RANGE;
    // Entries go stale when a neighbour merged; the live rank of a pair is always in pairRank.
    if (pairRank[start] !== rank) continue;
    const removed = next[start]!;
    const after = next[removed]!;
    next[start] = after;
    if (after <= length) previous[after] = start;
    pairRank[removed] = NO_RANK;
    parts--;
    const afterEnd = after < length ? next[after]! : length + 1;
    pairRank[start] = afterEnd <= length ? (rankOf(start, afterEnd) ?? NO_RANK) : NO_RANK;
    if (pairRank[start] !== NO_RANK) heapPush(heap, pairRank[start]! * POSITION_RANGE + start);
    const before = previous[start]!;
    if (before >= 0) {
      pairRank[before] = rankOf(before, after) ?? NO_RANK;
      if (pairRank[before] !== NO_RANK) heapPush(heap, pairRank[before]! * POSITION_RANGE + before);
    }
  }
  return parts;
}

function heapPush(heap: number[], value: number): void {
  let index = heap.length;
  heap.push(value);
  while (index > 0) {
    const parent = (index - 1) >> 1;
    if (heap[parent]! <= value) break;
    heap[index] = heap[parent]!;
    index = parent;
  }
  heap[index] = value;
}

function heapPop(heap: number[]): number {
  const top = heap[0]!;
  const last = heap.pop()!;
  if (heap.length > 0) {
    let index = 0;
    const size = heap.length;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= size) break;
      const right = left + 1;
      const child = right < size && heap[right]! < heap[left]! ? right : left;
      if (heap[child]! >= last) break;
      heap[index] = heap[child]!;
      index = child;
    }
    heap[index] = last;
  }
  return top;
}
