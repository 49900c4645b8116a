import { Node, type Extensions } from '@tiptap/core'
import StarterKit from '@tiptap/starter-kit'

// The schema of the Content editor: what it can hold is what the server's sanitiser keeps (p, h2–h6, strong, em, code,
// pre, a, lists, blockquote, hr, br, figure, img, tables). HTML loaded or pasted is parsed down to these nodes and marks.

// What a browser skips in a URL's scheme ("java\tscript:"), and other blanks, are dropped before the scheme is read.
const BLANKS = /[\u0000-\u0020\u007f-\u00a0\u1680\u180e\u2000-\u2029\u205f\u3000\ufeff]/g

/** An address with one of these schemes, or none (a path of this site). javascript:, data: and the rest are refused. */
function hasSchemeIn(url: string | null | undefined, schemes: string[]): boolean {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec((url ?? '').replace(BLANKS, ''))
  return !scheme || schemes.includes(scheme[1]!.toLowerCase())
}

export const isAllowedHref = (url: string | null | undefined) => hasSchemeIn(url, ['http', 'https', 'mailto'])
const isAllowedSrc = (url: string | null) => !!url && hasSchemeIn(url, ['http', 'https'])

/** Why an address typed in the link field is refused, or null. Stricter than what loading accepts: a whole address. */
export function linkAddressProblem(address: string): string | null {
  if (address === '') return 'Type the address the link goes to.'
  if (!/^(https?:\/\/\S+|mailto:\S+|\/(?!\/)\S*)$/i.test(address))
    return 'The address must start with https://, http://, mailto: or / (a page of this site), without spaces.'
  return null
}

const attribute = (name: string) => ({ default: null, parseHTML: (element: HTMLElement) => element.getAttribute(name) })

// Inline, as WordPress writes <p><img></p>; in a figure, the image sits in the figure's paragraph.
const Image = Node.create({
  name: 'image',
  inline: true,
  group: 'inline',
  atom: true,
  draggable: true,
  addAttributes: () => ({ src: attribute('src'), alt: attribute('alt'), title: attribute('title'), width: attribute('width'), height: attribute('height') }),
  // An image pasted from a file (file:, data:) is dropped rather than saved as a broken or huge address.
  parseHTML: () => [{ tag: 'img[src]', getAttrs: (img) => (isAllowedSrc(img.getAttribute('src')) ? null : false) }],
  renderHTML: ({ HTMLAttributes }) => ['img', HTMLAttributes],
})

const Figure = Node.create({
  name: 'figure',
  group: 'block',
  content: 'block+ figcaption?',
  parseHTML: () => [{ tag: 'figure' }],
  renderHTML: () => ['figure', 0],
})

const Figcaption = Node.create({
  name: 'figcaption',
  content: 'inline*',
  parseHTML: () => [{ tag: 'figcaption' }],
  renderHTML: () => ['figcaption', 0],
})

// Tables are kept and their cells' text can be edited; rows and columns are changed in the HTML, not here.
const Table = Node.create({
  name: 'table',
  group: 'block',
  content: 'tableCaption? tableRow+',
  isolating: true,
  parseHTML: () => [{ tag: 'table' }],
  renderHTML: () => ['table', 0],
})

const TableCaption = Node.create({
  name: 'tableCaption',
  content: 'inline*',
  parseHTML: () => [{ tag: 'caption' }],
  renderHTML: () => ['caption', 0],
})

const TableRow = Node.create({
  name: 'tableRow',
  content: '(tableHeader | tableCell)+',
  parseHTML: () => [{ tag: 'tr' }],
  renderHTML: () => ['tr', 0],
})

const span = (name: string) => ({
  default: null,
  parseHTML: (element: HTMLElement) => (Number(element.getAttribute(name)) > 1 ? element.getAttribute(name) : null),
})

const cell = (name: string, tag: 'td' | 'th') =>
  Node.create({
    name,
    content: 'block+',
    isolating: true,
    addAttributes: () => ({ colspan: span('colspan'), rowspan: span('rowspan') }),
    parseHTML: () => [{ tag }],
    renderHTML: ({ HTMLAttributes }) => [tag, HTMLAttributes, 0],
  })

export const contentExtensions: Extensions = [
  StarterKit.configure({
    // The page's title is its h1.
    heading: { levels: [2, 3, 4, 5, 6] },
    // The server's sanitiser keeps neither <u> nor <s>: they would vanish on saving.
    underline: false,
    strike: false,
    // It would add an empty paragraph after a last list or heading, and so change the HTML on the first click.
    trailingNode: false,
    link: {
      openOnClick: false,
      autolink: true,
      defaultProtocol: 'https',
      isAllowedUri: isAllowedHref,
      // The server sets rel itself; links open in the same tab.
      HTMLAttributes: { rel: null, target: null },
    },
  }),
  Image,
  Figure,
  Figcaption,
  Table,
  TableCaption,
  TableRow,
  cell('tableHeader', 'th'),
  cell('tableCell', 'td'),
]
