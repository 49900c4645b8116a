// The seeded generator of the bench's data and of the tests' random cases: the same numbers for the same seed.

/** mulberry32: a small seeded PRNG, good enough for test data. Returns floats in [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** `list` shuffled in place (Fisher–Yates) by the generator of `seed`: the same order for the same seed. */
export function shuffle<T>(list: T[], seed: number): T[] {
  const random = prng(seed)
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    ;[list[i], list[j]] = [list[j]!, list[i]!]
  }
  return list
}
