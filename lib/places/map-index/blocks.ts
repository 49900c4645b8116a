// The columns of the map's index in blocks, so that a write copies only the blocks it changes and shares the others
// with the index before it (place-index.ts, withChanges). A place put in or taken out changes the length of its block
// alone: the blocks after it keep their values, at positions one further on or back. So a new post in a million
// copies a few blocks of 32 KB, not whole arrays: tens of megabytes of new buffers, which V8 counts as external memory
// and answers with a collection of the whole heap, making the next map view wait (BENCHMARKS.md).

const BLOCK_BITS = 12
/** Values a block holds when a column is made whole; a write leaves blocks of BLOCK / 2 to 1.5 × BLOCK (the last may be shorter). */
export const BLOCK = 1 << BLOCK_BITS
const MASK = BLOCK - 1
// The directory's step: no longer than any block but the last (splicedColumn), so that the positions of a step are in
// the block the directory names or the next.
const STEP_BITS = BLOCK_BITS - 1

type Values = Float64Array | Uint32Array | Int32Array

/**
 * A column of values in blocks, each block its own buffer, so that a block no index shares any more is freed. Never
 * written once an index holds it. Position i is in the block the directory names for i's step, or the next; when
 * every block after the first is BLOCK long (a column made whole, or written only at its start) it is found by a
 * shift and a mask. Read by a method, not a function imported from here: the views read it for every place, and a
 * bundle reads an imported function from its module's exports at each call, which under tsx is a getter V8 did not
 * inline (a view seven times as long).
 */
export class Column<A extends Values = Float64Array> {
  /** starts[b]: the position of block b's first value; starts[blocks.length]: the column's length */
  readonly starts: Float64Array
  /** the block that holds the position k << STEP_BITS */
  private readonly directory: Uint32Array
  /**
   * The first block's length when every block after it but the last is BLOCK long, and the last no longer (a column
   * made whole, or one whose writes were all at its start: new posts in the collection's order); else -1
   */
  private readonly head: number

  constructor(readonly blocks: readonly A[]) {
    // blockOf looks one block past the directory's at most.
    if (blocks.some((block, b) => block.length < 2 ** STEP_BITS && b < blocks.length - 1)) throw new Error('A block but the last is too short')
    this.starts = new Float64Array(blocks.length + 1)
    blocks.forEach((block, b) => (this.starts[b + 1] = this.starts[b]! + block.length))
    const even = blocks.every((block, b) => b === 0 || block.length === BLOCK || (b === blocks.length - 1 && block.length <= BLOCK))
    this.head = even ? (blocks[0]?.length ?? 0) : -1
    this.directory = new Uint32Array(Math.ceil(this.length / 2 ** STEP_BITS))
    for (let k = 0, b = 0; k < this.directory.length; k++) {
      while (this.starts[b + 1]! <= k * 2 ** STEP_BITS) b++
      this.directory[k] = b
    }
  }

  /** The column of these values (copied), in blocks of BLOCK. */
  static of<A extends Values>(values: A): Column<A> {
    const blocks: A[] = []
    for (let start = 0; start < values.length; start += BLOCK) blocks.push(values.slice(start, start + BLOCK) as A)
    return new Column(blocks)
  }

  /** How many values the column holds. */
  get length(): number {
    return this.starts[this.blocks.length]!
  }

  /** The block that holds position i. */
  blockOf(i: number): number {
    const { head } = this
    if (head >= 0) return i < head ? 0 : 1 + ((i - head) >>> BLOCK_BITS)
    const b = this.directory[i >>> STEP_BITS]!
    return this.starts[b + 1]! <= i ? b + 1 : b
  }

  /** The value at position i. */
  get(i: number): number {
    const { head } = this
    if (head >= 0) {
      if (i < head) return this.blocks[0]![i]!
      const after = i - head
      return this.blocks[1 + (after >>> BLOCK_BITS)]![after & MASK]!
    }
    const b = this.blockOf(i)
    return this.blocks[b]![i - this.starts[b]!]!
  }

  /** The values at positions [lo, hi) (as far as the column goes). */
  slice(lo: number, hi: number): number[] {
    const values: number[] = []
    for (let i = lo, end = Math.min(hi, this.length); i < end; i++) values.push(this.get(i))
    return values
  }

  /** The values at these positions (ascending) into `target`, walking the blocks once rather than looking each up. */
  gather(positions: Uint32Array, target: A): void {
    for (let k = 0, b = 0; k < positions.length; k++) {
      const i = positions[k]!
      while (this.starts[b + 1]! <= i) b++
      target[k] = this.blocks[b]![i - this.starts[b]!]!
    }
  }

  /** Copies the values at positions [from, from + count) into `target` from `offset` on. */
  copyTo(target: A, offset: number, from: number, count: number): void {
    for (let piece; count > 0; from += piece, offset += piece, count -= piece) {
      const b = this.blockOf(from)
      const [block, at] = [this.blocks[b]!, from - this.starts[b]!]
      piece = Math.min(count, block.length - at)
      target.set(block.subarray(at, at + piece), offset)
    }
  }
}

/**
 * Running sums of whole numbers over positions, in blocks: each block holds the sums within it, its first number
 * included (`sums`), and `bases` the sum before each block, so that a block's sums depend on its own numbers only: a
 * change copies the blocks it touches and the bases (one number per block), and shares the other blocks. Sums of
 * whole numbers below 2^53 are exact in whatever order they are added: sums made by a write are those a build makes.
 */
export class RunningSums {
  private readonly bases: Float64Array

  constructor(readonly sums: Column) {
    const { blocks } = sums
    this.bases = new Float64Array(blocks.length)
    for (let b = 1; b < blocks.length; b++) this.bases[b] = this.bases[b - 1]! + blocks[b - 1]!.at(-1)!
  }

  /** The running sums of these whole numbers. */
  static of(numbers: Float64Array): RunningSums {
    const sums = new Float64Array(numbers.length)
    for (let i = 0; i < numbers.length; i++) sums[i] = ((i & MASK) === 0 ? 0 : sums[i - 1]!) + numbers[i]!
    return new RunningSums(Column.of(sums))
  }

  /** The sum of the numbers at positions [0, i). */
  before(i: number): number {
    if (i === 0) return 0
    const { sums } = this
    const b = sums.blockOf(i - 1)
    return this.bases[b]! + sums.blocks[b]![i - 1 - sums.starts[b]!]!
  }

  /** The numbers at these positions (ascending) into `target`, walking the blocks once. */
  gather(positions: Uint32Array, target: Float64Array): void {
    const { blocks, starts } = this.sums
    for (let k = 0, b = 0; k < positions.length; k++) {
      const i = positions[k]!
      while (starts[b + 1]! <= i) b++
      const j = i - starts[b]!
      target[k] = j === 0 ? blocks[b]![0]! : blocks[b]![j]! - blocks[b]![j - 1]!
    }
  }

  /** The number at position i. */
  at(i: number): number {
    const { sums } = this
    const b = sums.blockOf(i)
    const [block, j] = [sums.blocks[b]!, i - sums.starts[b]!]
    return j === 0 ? block[0]! : block[j]! - block[j - 1]!
  }
}

/** A run of an old order kept in a new one: old positions [from, end) at new positions from `to`. */
export type Run = [from: number, end: number, to: number]

/**
 * A new order of `size` places made from an old one: its runs kept (ascending), and places put in at the new
 * positions `putAt` (ascending) between them.
 */
export type Splice = { size: number; runs: readonly Run[]; putAt: Uint32Array }

/**
 * A column in the new order of `splice`: at a kept position, its old value, or `read` of its old position when given
 * (a value worked out from it); at the p-th position put in, `put(p)`. An old block whose positions all lie in one run
 * is kept as it is, at its new place, when `shares` says so of it (by default when the values are the old ones); the
 * positions between kept blocks are made anew, in blocks of about BLOCK values (none shorter than BLOCK / 2 where a
 * kept block can be taken in instead).
 */
export function splicedColumn<A extends Values>(
  Kind: new (length: number) => A,
  column: Column<A>,
  { size, runs, putAt }: Splice,
  put: (p: number) => number,
  read?: (position: number) => number,
  shares: (block: A) => boolean = () => !read,
): Column<A> {
  const { blocks, starts } = column
  // The old blocks kept, by number, and the new position of each.
  const kept: [b: number, at: number][] = []
  for (let r = 0, b = 0; r < runs.length; r++) {
    const [from, end, to] = runs[r]!
    while (b < blocks.length && starts[b]! < from) b++
    for (; b < blocks.length && starts[b + 1]! <= end; b++) {
      // A short block (a column's last) is kept only where it stays the last; else it is made again with its neighbours.
      const staysLast = b === blocks.length - 1 && to + starts[b + 1]! - from === size
      if ((blocks[b]!.length >= BLOCK / 2 || staysLast) && shares(blocks[b]!)) kept.push([b, to + starts[b]! - from])
    }
  }
  const made: A[] = []
  let [r, p] = [0, 0]
  // The values of new positions [lo, hi), in blocks of about BLOCK, each filled in its own buffer: at the column's start
  // or end, blocks of BLOCK after the first or before the last, so that a column written only there (new posts in
  // the collection's order) keeps Column's quick read.
  const make = (lo: number, hi: number) => {
    const length = hi - lo
    let ends: number[]
    if (lo > 0 && hi < size) {
      const pieces = Math.max(1, Math.round(length / BLOCK))
      ends = Array.from({ length: pieces }, (_, k) => lo + Math.floor((length * (k + 1)) / pieces))
    } else {
      const pieces = hi === size ? Math.ceil(length / BLOCK) : Math.max(1, Math.round(length / BLOCK))
      const first = lo === 0 && hi < size ? length - (pieces - 1) * BLOCK : Math.min(BLOCK, length)
      ends = Array.from({ length: pieces }, (_, k) => Math.min(hi, lo + first + k * BLOCK))
    }
    for (let k = 0, from = lo; k < ends.length; from = ends[k++]!) made.push(fill(from, ends[k]!))
  }
  const fill = (lo: number, hi: number): A => {
    const values = new Kind(hi - lo)
    while (r < runs.length && runs[r]![2] + runs[r]![1] - runs[r]![0] <= lo) r++
    for (let q = r; q < runs.length && runs[q]![2] < hi; q++) {
      const [from, runEnd, to] = runs[q]!
      const [start, end] = [Math.max(to, lo), Math.min(to + runEnd - from, hi)]
      if (!read) column.copyTo(values, start - lo, from + start - to, end - start)
      else for (let i = start; i < end; i++) values[i - lo] = read(from + i - to)
    }
    for (; p < putAt.length && putAt[p]! < hi; p++) values[putAt[p]! - lo] = put(p)
    return values
  }
  // No block but the last shorter than BLOCK / 2: positions between two kept blocks too few for a block of their own
  // take in the next kept block (at the column's end they are its last block).
  let position = 0
  for (let k = 0; ; k++) {
    let end = k < kept.length ? kept[k]![1] : size
    while (end > position && end - position < BLOCK / 2 && k < kept.length) end = ++k < kept.length ? kept[k]![1] : size
    if (end > position) make(position, end)
    if (k === kept.length) break
    const block = blocks[kept[k]![0]]!
    made.push(block)
    position = kept[k]![1] + block.length
  }
  return new Column(made)
}

/** Running sums in the new order of `splice`: the p-th number put in is `put(p)`. */
export function splicedSums(sums: RunningSums, splice: Splice, put: (p: number) => number): RunningSums {
  // A block that keeps its places keeps its sums; the others are made with each position's number, then summed.
  const column = splicedColumn(
    Float64Array,
    sums.sums,
    splice,
    put,
    (i) => sums.at(i),
    () => true,
  )
  const old = new Set(sums.sums.blocks)
  for (const block of column.blocks) if (!old.has(block)) for (let i = 1; i < block.length; i++) block[i]! += block[i - 1]!
  return new RunningSums(column)
}
