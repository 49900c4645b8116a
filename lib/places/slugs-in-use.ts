import { randomBytes } from 'node:crypto'
import { firstFree, slugBase } from '../slugs'

// The imports' slugs in use (lib/places/batch.ts): apart from lib/slugs.ts, whose rules the editor's script uses,
// because these hold Node's Buffer and randomBytes.

/**
 * Slugs in use, handing out free ones by freeSlug's rule, each then in use. As they only grow, it remembers per base
 * how far the search went: the thousandth post of one title costs one lookup, not a thousand (imports of many places
 * named alike, BENCHMARKS.md).
 */
export class SlugsInUse {
  /** per base: the suffix its next search starts from, every one below it being in use */
  private readonly searched = new Map<string, number>()
  private readonly taken = new StringSet()

  constructor(taken: Iterable<string> = []) {
    this.add(taken)
  }

  /** Slugs in use besides those given at first (read in pages, say). */
  add(taken: Iterable<string>): void {
    for (const slug of taken) this.taken.add(slug)
  }

  take(wanted: string): string {
    const base = slugBase(wanted)
    const slug = firstFree(base, (s) => this.taken.has(s), this.searched.get(base) ?? 2)
    if (slug !== base) this.searched.set(base, Number(slug.slice(base.length + 1)) + 1)
    this.taken.add(slug)
    return slug
  }
}

/** The strings of a StringSet are written in blocks of this many bytes. */
const BLOCK = 1 << 20

/**
 * A set of strings kept as UTF-8 in blocks of 1 MB, each behind its length, found by a hash table of their offsets
 * (open addressing, at most half full, the hash seeded at random per set: a file of slugs made to collide cannot
 * choose them, as it cannot for a Set's). An import keeps every slug of its post type: 970,000 of them are 70 MB of
 * small strings in a Set's heap, which the garbage collector walks and lets the heap grow around; here about 35 MB
 * written outside it (BENCHMARKS.md, "places import: the slugs outside the heap"). The set grows a block at a time,
 * never copying what it holds: one buffer doubled as it fills would reach twice that, and hold both copies at once.
 */
export class StringSet {
  /**
   * The strings, each behind its byte length (4 bytes), at offsets counted across the blocks taken together: the
   * string at `offset` is in `blocks[offset / BLOCK]`, from `offset % BLOCK`. A string that would run past its block's
   * end starts the next block (the rest of the block stays unused); one longer than a block gets a buffer of its own,
   * as many blocks long as it needs, each of whose entries here is the part of it from that block on.
   */
  private blocks: Buffer[] = []
  /** the offset where the next string goes */
  private end = 0
  /** per slot, the offset of a string's length plus one; 0 for an empty slot */
  private slots = new Uint32Array(1 << 12)
  private count = 0
  /** the string looked up last, as UTF-8 */
  private key: Buffer = Buffer.alloc(256)
  private keyLength = 0
  private readonly seed = randomBytes(4).readUInt32LE()

  get size(): number {
    return this.count
  }

  has(text: string): boolean {
    this.encode(text)
    return this.slots[this.slotOfKey()] !== 0
  }

  add(text: string): void {
    this.encode(text)
    const slot = this.slotOfKey()
    if (this.slots[slot] !== 0) return
    const needed = 4 + this.keyLength
    if (this.end + needed > this.blocks.length * BLOCK) {
      const size = Math.ceil(needed / BLOCK) * BLOCK
      // An offset plus one must fit its slot's 32 bits.
      if (this.blocks.length * BLOCK + size > 0xffff_ffff) throw new RangeError('StringSet: more than 4 GiB of strings')
      this.end = this.blocks.length * BLOCK
      const block = Buffer.allocUnsafeSlow(size) // not zeroed: only what is written there is read
      for (let from = 0; from < size; from += BLOCK) this.blocks.push(block.subarray(from))
    }
    const block = this.blocks[Math.floor(this.end / BLOCK)]!
    const at = this.end % BLOCK
    block.writeUInt32LE(this.keyLength, at)
    this.key.copy(block, at + 4, 0, this.keyLength)
    this.slots[slot] = this.end + 1
    this.end += needed
    if (++this.count * 2 > this.slots.length) this.rehash()
  }

  private encode(text: string): void {
    const length = Buffer.byteLength(text)
    if (length > this.key.length) this.key = Buffer.alloc(length * 2)
    this.keyLength = this.key.write(text)
  }

  /** The slot of the key (encode): the one holding it, or the empty one where it would go. */
  private slotOfKey(): number {
    const mask = this.slots.length - 1
    for (let slot = hash(this.seed, this.key, 0, this.keyLength) & mask; ; slot = (slot + 1) & mask) {
      const offset = this.slots[slot]! - 1
      if (offset < 0) return slot
      const block = this.blocks[Math.floor(offset / BLOCK)]!
      const at = offset % BLOCK
      const length = block.readUInt32LE(at)
      if (length === this.keyLength && block.compare(this.key, 0, length, at + 4, at + 4 + length) === 0) return slot
    }
  }

  /** Twice the slots, each string's offset placed anew. */
  private rehash(): void {
    const before = this.slots
    this.slots = new Uint32Array(before.length * 2)
    const mask = this.slots.length - 1
    for (const offsetPlusOne of before) {
      if (offsetPlusOne === 0) continue
      const block = this.blocks[Math.floor((offsetPlusOne - 1) / BLOCK)]!
      const at = (offsetPlusOne - 1) % BLOCK
      let slot = hash(this.seed, block, at + 4, at + 4 + block.readUInt32LE(at)) & mask
      while (this.slots[slot] !== 0) slot = (slot + 1) & mask
      this.slots[slot] = offsetPlusOne
    }
  }
}

/** FNV-1a of bytes [start, end) from a seeded basis, its bits mixed into the low ones the table uses (murmur3's fmix32). */
function hash(seed: number, bytes: Buffer, start: number, end: number): number {
  let h = seed ^ 0x811c9dc5
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193)
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b)
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35)
  return (h ^ (h >>> 16)) >>> 0
}
