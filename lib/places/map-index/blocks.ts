// The columns of the map's index in blocks of BLOCK values, so that a write copies only the blocks it changes and
// shares the others with the index before it (place-index.ts, withChanges). Moving one place of a million then copies
// a few blocks of 32 KB, not whole arrays: tens of megabytes of new buffers, which V8 counts as external memory and
// answers with a collection of the whole heap, making the next map view wait (BENCHMARKS.md).

const BLOCK_BITS = 12
/** Values a block holds; the last block of a column holds the rest. */
export const BLOCK = 1 << BLOCK_BITS
const MASK = BLOCK - 1

/**
 * A column of values in blocks, position i at [i >>> BLOCK_BITS][i & MASK]; each block its own buffer, so that a block
 * no index shares any more is freed. Never written once an index holds it. Read by a method, not a function imported
 * from here: the views read it for every place, and a bundle reads an imported function from its module's exports at
 * each call, which under tsx is a getter V8 did not inline (a view seven times as long).
 */
export class Column<A extends Float64Array | Uint32Array = Float64Array> {
  constructor(readonly blocks: readonly A[]) {}

  /** The column of these values (copied). */
  static of<A extends Float64Array | Uint32Array>(values: A): Column<A> {
    const blocks: A[] = []
    for (let start = 0; start < values.length; start += BLOCK) blocks.push(values.slice(start, start + BLOCK) as A)
    return new Column(blocks)
  }

  /** The value at position i. */
  get(i: number): number {
    return this.blocks[i >>> BLOCK_BITS]![i & MASK]!
  }

  /** The values at positions [lo, hi). */
  slice(lo: number, hi: number): number[] {
    const values: number[] = []
    for (let i = lo; i < hi; i++) values.push(this.get(i))
    return values
  }

  /** Copies the values at positions [from, from + count) into `target` from `offset` on. */
  copyTo(target: A, offset: number, from: number, count: number): void {
    for (let piece; count > 0; from += piece, offset += piece, count -= piece) {
      const block = this.blocks[from >>> BLOCK_BITS]!
      piece = Math.min(count, block.length - (from & MASK))
      target.set(block.subarray(from & MASK, (from & MASK) + piece), offset)
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
    const last = i - 1
    return this.bases[last >>> BLOCK_BITS]! + this.sums.blocks[last >>> BLOCK_BITS]![last & MASK]!
  }

  /** The number at position i. */
  at(i: number): number {
    const block = this.sums.blocks[i >>> BLOCK_BITS]!
    const j = i & MASK
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
 * (a value worked out from it); at the p-th position put in, `put(p)`. A block whose positions all keep their old
 * ones is the old block itself when `shares` (by default when the values are the old ones); the others are made anew.
 */
export function splicedColumn<A extends Float64Array | Uint32Array>(
  Kind: new (length: number) => A,
  column: Column<A>,
  { size, runs, putAt }: Splice,
  put: (p: number) => number,
  read?: (position: number) => number,
  shares = !read,
): Column<A> {
  const blocks: A[] = []
  let [r, p] = [0, 0]
  for (let start = 0; start < size; start += BLOCK) {
    const end = Math.min(start + BLOCK, size)
    // The first run that ends past the block's start: when it holds the whole block where it was, the block is kept.
    while (r < runs.length && runs[r]![2] + runs[r]![1] - runs[r]![0] <= start) r++
    const old = column.blocks[start >>> BLOCK_BITS]
    const run = runs[r]
    if (shares && old?.length === end - start && run && run[0] === run[2] && run[2] <= start && run[1] >= end) {
      blocks.push(old)
      continue
    }
    const block = new Kind(end - start)
    for (let q = r; q < runs.length && runs[q]![2] < end; q++) {
      const [from, runEnd, to] = runs[q]!
      const [lo, hi] = [Math.max(to, start), Math.min(to + runEnd - from, end)]
      if (!read) column.copyTo(block, lo - start, from + lo - to, hi - lo)
      else for (let i = lo; i < hi; i++) block[i - start] = read(from + i - to)
    }
    for (; p < putAt.length && putAt[p]! < end; p++) block[putAt[p]! - start] = put(p)
    blocks.push(block)
  }
  return new Column(blocks)
}

/** Running sums in the new order of `splice`: the p-th number put in is `put(p)`. */
export function splicedSums(sums: RunningSums, splice: Splice, put: (p: number) => number): RunningSums {
  // A block that keeps its places keeps its sums; the others are made with each position's number, then summed.
  const column = splicedColumn(Float64Array, sums.sums, splice, put, (i) => sums.at(i), true)
  column.blocks.forEach((block, b) => {
    if (block !== sums.sums.blocks[b]) for (let i = 1; i < block.length; i++) block[i]! += block[i - 1]!
  })
  return new RunningSums(column)
}
