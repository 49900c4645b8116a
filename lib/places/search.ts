import 'server-only'
import { contentText } from '../content/html'
import { getDb, transaction } from '../db'

// The admin's search ignores accents and case on both databases ("senso" finds "Sensō-ji", "CAFE" finds "Café"). Both
// would need a function the database does not have as shipped (PostgreSQL's unaccent is an extension a host may lack;
// the SQLite adapter opens its own connections, so no custom function can be added), so the writers store a folded
// copy of title and address (search_text) and of content (search_content), and the search folds the query the same way.
// Who writes posts: lib/admin/posts.ts and lib/places/batch.ts (GeoJSON and WordPress imports). Rows written another
// way (an SQL shell, a version before this) have NULL there, and a server fills them when it starts.

// Letters NFD does not take apart, spelled as a reader searching in ASCII would
const LETTERS: Record<string, string> = { ø: 'o', ł: 'l', đ: 'd', ħ: 'h', ı: 'i', æ: 'ae', œ: 'oe', ß: 'ss', þ: 'th', ð: 'd' }

// LIKE's wildcards and PostgreSQL's escape character, spelled as private-use characters in the stored text and in
// the query alike: Prisma's `contains` passes them on unescaped (and SQLite's LIKE has no escape character unless
// told), so "50%" or "a_b" would otherwise match far more than they say.
const LIKE_SPECIALS: Record<string, string> = { '%': '\uE000', _: '\uE001', '\\': '\uE002' }

/** `text` without accents (NFD, combining marks dropped), in lower case, LIKE's special characters made plain. */
export function foldForSearch(text: string): string {
  // ASCII, as most text is, has nothing to take apart or spell otherwise: only its case (about a third less time for
  // generated titles, addresses and contents, 83 % of them ASCII: BENCHMARKS.md).
  const folded = /[\u0080-\uffff]/.test(text)
    ? text
        .normalize('NFD')
        .replace(/\p{M}+/gu, '')
        .toLowerCase()
        .replace(/[øłđħıæœßþð]/g, (letter) => LETTERS[letter] ?? letter)
    : text.toLowerCase()
  return folded.replace(/[%_\\]/g, (special) => LIKE_SPECIALS[special]!)
}

/** The folded columns of a post with this title, address and content (HTML: its text is folded). */
export function searchColumns(post: { title: string; address?: string | null; content?: string | null }): { searchText: string; searchContent: string } {
  return { searchText: foldForSearch(`${post.title}\n${post.address ?? ''}`), searchContent: post.content ? foldForSearch(contentText(post.content)) : '' }
}

/** Computes the folded columns where they are missing; returns how many posts it filled. */
export async function fillSearchColumns(): Promise<number> {
  const db = getDb()
  let filled = 0
  for (;;) {
    const rows = await db.post.findMany({ where: { searchText: null }, select: { id: true, title: true, address: true, content: true }, take: 500 })
    if (rows.length === 0) return filled
    // One transaction a batch: one commit (and one flush to disk) for 500 posts, not one each.
    await transaction(async (tx) => {
      for (const row of rows) await tx.post.update({ where: { id: row.id }, data: searchColumns(row) })
    })
    filled += rows.length
  }
}
