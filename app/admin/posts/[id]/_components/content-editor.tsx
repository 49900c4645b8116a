'use client'

import { Extension, createDocument, type ChainedCommands } from '@tiptap/core'
import type { Node as ProseMirrorNode } from '@tiptap/pm/model'
import { EditorContent, useEditor, useEditorState } from '@tiptap/react'
import { useEffect, useEffectEvent, useMemo, useRef, useState, useSyncExternalStore, type KeyboardEvent, type ReactNode } from 'react'
import { ContentPhotoField, type ContentPhoto } from './content-photo'
import { contentExtensions, linkAddressProblem } from './content-schema'

type Props = {
  /** the id of the editable area (the textbox) */
  id: string
  /** the id of the label that names it */
  labelId: string
  /** the post, whose photos the Photo button offers */
  postId: number
  /** the content, as HTML */
  value: string
  /** the editor's HTML after each edit, '' when it is empty; never on load nor when `value` is set from outside */
  onChange: (html: string) => void
  invalid?: boolean
  describedBy?: string
}

// Ctrl/Cmd+K opens the link field: the shortcut sends this event up from the text, and the component opens the field.
const LINK_SHORTCUT = 'content-editor-link'
const LinkShortcut = Extension.create({
  name: 'linkShortcut',
  addKeyboardShortcuts() {
    return { 'Mod-k': () => this.editor.view.dom.dispatchEvent(new Event(LINK_SHORTCUT, { bubbles: true })) }
  },
})
const extensions = [...contentExtensions, LinkShortcut]

// What the server's sanitiser sets or drops by itself (a link's rel, a code block's language class) is no difference.
const IGNORED = new Set(['rel', 'target', 'language'])
const comparable = (doc: ProseMirrorNode) => JSON.stringify(doc.toJSON(), (key, value: unknown) => (IGNORED.has(key) ? undefined : value))

// tiptap's Mod is ⌘ on Apple's keyboards and Ctrl elsewhere. Read after hydration: the server cannot know.
const noSubscription = () => () => {}
const useApple = () =>
  useSyncExternalStore(
    noSubscription,
    () => /Mac|iPhone|iPad/.test(navigator.userAgent),
    () => false,
  )

const SHOWN: Record<'apple' | 'other', Record<string, string>> = {
  apple: { Mod: '⌘', Alt: '⌥', Shift: '⇧' },
  other: { Mod: 'Ctrl', Alt: 'Alt', Shift: 'Shift' },
}
const MODIFIERS: Record<'apple' | 'other', string[]> = { apple: ['Alt', 'Shift', 'Mod'], other: ['Mod', 'Alt', 'Shift'] }

/** A tiptap shortcut ("Mod-Shift-8") as the platform writes it ("⇧⌘8", "Ctrl+Shift+8") and as aria-keyshortcuts names it. */
function describeKeys(shortcut: string, apple: boolean): { shown: string; aria: string } {
  const platform = apple ? 'apple' : 'other'
  const parts = shortcut.split('-')
  const keys = [...MODIFIERS[platform].filter((modifier) => parts.includes(modifier)), ...parts.filter((part) => !MODIFIERS[platform].includes(part))]
  return {
    shown: keys.map((key) => SHOWN[platform][key] ?? key.toUpperCase()).join(apple ? '' : '+'),
    aria: keys.map((key) => (key === 'Mod' ? (apple ? 'Meta' : 'Control') : key.length === 1 ? key.toUpperCase() : key)).join('+'),
  }
}

type Tool = {
  name: string
  /** what the button shows, when it is not its name */
  face?: ReactNode
  shortcut?: string
  /** the Markdown that does the same as it is typed, for the button's title */
  markdown?: string
  /** a toggle's state; undefined for a button that is not one */
  pressed?: boolean
  expanded?: boolean
  controls?: string
  disabled?: boolean
  /** what it does to the text; the Link and Photo buttons open their field instead */
  command?: (chain: ChainedCommands) => ChainedCommands
  field?: Field
}

/** The field below the toolbar that a button opens: one at a time. */
type Field = 'link' | 'photo'

/** The post's Content: a rich-text editor (Tiptap) that reads and writes HTML, with a formatting toolbar above it. */
export function ContentEditor({ id, labelId, postId, value, onChange, invalid, describedBy }: Props) {
  const apple = useApple()
  const [field, setField] = useState<Field | null>(null)
  const [href, setHref] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const linkInput = useRef<HTMLInputElement>(null)
  const box = useRef<HTMLDivElement>(null)
  const [active, setActive] = useState(0)

  // The HTML handed to onChange and not yet seen back as `value`: any other `value` was set from outside.
  const emitted = useRef<string[]>([])
  const [initial] = useState(value)
  const editorProps = useMemo(() => {
    const attributes: Record<string, string> = { id, role: 'textbox', 'aria-multiline': 'true', 'aria-labelledby': labelId, class: 'content-editor-text' }
    if (describedBy) attributes['aria-describedby'] = describedBy
    if (invalid) attributes['aria-invalid'] = 'true'
    return { attributes }
  }, [id, labelId, describedBy, invalid])

  const editor = useEditor({
    // Rendered in the browser only: the server's HTML would not match the editor's.
    immediatelyRender: false,
    extensions,
    content: initial,
    editorProps,
    onUpdate: ({ editor: current }) => {
      const html = current.isEmpty ? '' : current.getHTML()
      emitted.current.push(html)
      onChange(html)
    },
  })

  // A value from outside (a restored autosave, the server's HTML after a save) replaces the text, unless it is the
  // same document: parsed, so that how the HTML is written does not count, and the cursor stays put after a save.
  useEffect(() => {
    if (!editor) return
    const seen = emitted.current.lastIndexOf(value)
    if (seen >= 0) {
      emitted.current.splice(0, seen)
      return
    }
    emitted.current = []
    if (comparable(createDocument(value, editor.schema)) !== comparable(editor.state.doc)) editor.commands.setContent(value, { emitUpdate: false })
  }, [editor, value])

  // The label names the text (aria-labelledby) but a click on it focuses only form controls: this one too.
  useEffect(() => {
    const label = document.getElementById(labelId)
    if (!editor || !label) return
    const focus = () => editor.commands.focus()
    label.addEventListener('click', focus)
    return () => label.removeEventListener('click', focus)
  }, [editor, labelId])

  const state = useEditorState({
    editor,
    selector: ({ editor: current }) =>
      current && {
        h2: current.isActive('heading', { level: 2 }),
        h3: current.isActive('heading', { level: 3 }),
        bold: current.isActive('bold'),
        italic: current.isActive('italic'),
        link: current.isActive('link'),
        bulletList: current.isActive('bulletList'),
        orderedList: current.isActive('orderedList'),
        blockquote: current.isActive('blockquote'),
        undo: current.can().undo(),
        redo: current.can().redo(),
      },
  })

  function openLink() {
    if (!editor) return
    const current: unknown = editor.getAttributes('link').href
    setHref(typeof current === 'string' ? current : '')
    setProblem(null)
    setField('link')
    linkInput.current?.focus()
  }
  const onLinkShortcut = useEffectEvent(openLink)
  useEffect(() => {
    const element = box.current
    element?.addEventListener(LINK_SHORTCUT, onLinkShortcut)
    return () => element?.removeEventListener(LINK_SHORTCUT, onLinkShortcut)
  }, [])
  useEffect(() => {
    if (field !== 'link') return
    linkInput.current?.focus()
    linkInput.current?.select()
  }, [field])

  function closeField() {
    setField(null)
    setProblem(null)
    editor?.commands.focus()
  }

  function applyLink() {
    if (!editor) return
    const address = href.trim()
    const refused = linkAddressProblem(address)
    if (refused) {
      setProblem(refused)
      linkInput.current?.focus()
      return
    }
    const chain = editor.chain().focus()
    if (editor.isActive('link')) chain.extendMarkRange('link').setLink({ href: address }).run()
    else if (editor.state.selection.empty)
      // Nothing selected: the address becomes the link's text, and what is typed next is not part of the link.
      chain
        .insertContent({ type: 'text', text: address.replace(/^mailto:/i, ''), marks: [{ type: 'link', attrs: { href: address } }] })
        .unsetMark('link')
        .run()
    else chain.setLink({ href: address }).run()
    setField(null)
    setProblem(null)
  }

  function removeLink() {
    editor?.chain().focus().extendMarkRange('link').unsetLink().run()
    setField(null)
    setProblem(null)
  }

  // As WordPress's image block: a figure, its caption under it; the image alone on its line, where the cursor was.
  function insertPhoto({ src, alt, caption }: ContentPhoto) {
    editor
      ?.chain()
      .focus()
      .insertContent({
        type: 'figure',
        content: [
          { type: 'paragraph', content: [{ type: 'image', attrs: { src, alt } }] },
          ...(caption ? [{ type: 'figcaption', content: [{ type: 'text', text: caption }] }] : []),
        ],
      })
      .run()
    setField(null)
  }

  function onLinkKeyDown(event: KeyboardEvent<HTMLElement>) {
    if (event.key === 'Escape') {
      event.preventDefault()
      closeField()
    } else if (event.key === 'Enter' && event.currentTarget === linkInput.current) {
      // Enter would otherwise submit the post's form.
      event.preventDefault()
      applyLink()
    }
  }

  function activate(tool: Tool) {
    if (tool.disabled) return
    if (tool.command) {
      if (editor) tool.command(editor.chain().focus()).run()
    } else if (field === tool.field) closeField()
    else if (tool.field === 'link') openLink()
    else setField('photo')
  }

  const tools: Tool[] = [
    { name: 'Heading 2', face: 'H2', shortcut: 'Mod-Alt-2', markdown: '## and a space', pressed: !!state?.h2, command: (c) => c.toggleHeading({ level: 2 }) },
    { name: 'Heading 3', face: 'H3', shortcut: 'Mod-Alt-3', markdown: '### and a space', pressed: !!state?.h3, command: (c) => c.toggleHeading({ level: 3 }) },
    { name: 'Bold', face: <b>B</b>, shortcut: 'Mod-b', markdown: '**bold**', pressed: !!state?.bold, command: (c) => c.toggleBold() },
    { name: 'Italic', face: <i>I</i>, shortcut: 'Mod-i', markdown: '*italic*', pressed: !!state?.italic, command: (c) => c.toggleItalic() },
    {
      name: 'Link',
      shortcut: 'Mod-k',
      expanded: field === 'link',
      controls: field === 'link' ? `${id}-link-field` : undefined,
      field: 'link',
    },
    {
      name: 'Bulleted list',
      face: '• List',
      shortcut: 'Mod-Shift-8',
      markdown: '- and a space',
      pressed: !!state?.bulletList,
      command: (c) => c.toggleBulletList(),
    },
    {
      name: 'Numbered list',
      face: '1. List',
      shortcut: 'Mod-Shift-7',
      markdown: '1. and a space',
      pressed: !!state?.orderedList,
      command: (c) => c.toggleOrderedList(),
    },
    { name: 'Quote', shortcut: 'Mod-Shift-b', markdown: '> and a space', pressed: !!state?.blockquote, command: (c) => c.toggleBlockquote() },
    { name: 'Photo', expanded: field === 'photo', controls: field === 'photo' ? `${id}-photo-field` : undefined, field: 'photo' },
    { name: 'Undo', shortcut: 'Mod-z', disabled: !state?.undo, command: (c) => c.undo() },
    { name: 'Redo', shortcut: apple ? 'Mod-Shift-z' : 'Mod-y', disabled: !state?.redo, command: (c) => c.redo() },
  ]

  // The WAI-ARIA toolbar: one tab stop, the arrow keys, Home and End move between its buttons.
  function onToolbarKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const buttons = Array.from(event.currentTarget.querySelectorAll('button'))
    const at = buttons.indexOf(event.target as HTMLButtonElement)
    const last = buttons.length - 1
    const moves: Record<string, number> = { ArrowRight: at < last ? at + 1 : 0, ArrowLeft: at > 0 ? at - 1 : last, Home: 0, End: last }
    const to = moves[event.key]
    if (at < 0 || to === undefined) return
    event.preventDefault()
    buttons[to]?.focus()
  }

  return (
    <div ref={box} className="content-editor">
      <div role="toolbar" aria-label="Formatting" aria-controls={id} className="content-editor-toolbar" onKeyDown={onToolbarKeyDown}>
        {tools.map((tool, index) => {
          const keys = tool.shortcut ? describeKeys(tool.shortcut, apple) : undefined
          return (
            <button
              key={tool.name}
              type="button"
              tabIndex={index === active ? 0 : -1}
              aria-label={tool.face === undefined ? undefined : tool.name}
              aria-pressed={tool.pressed}
              aria-expanded={tool.expanded}
              aria-controls={tool.controls}
              // aria-disabled, not disabled: a disabled button would leave the toolbar without its tab stop.
              aria-disabled={tool.disabled || undefined}
              aria-keyshortcuts={keys?.aria}
              title={keys && `${tool.name} (${keys.shown}${tool.markdown ? `, or type ${tool.markdown}` : ''})`}
              onFocus={() => setActive(index)}
              onClick={() => activate(tool)}
            >
              {tool.face ?? tool.name}
            </button>
          )
        })}
      </div>
      {field === 'link' && (
        <div id={`${id}-link-field`} className="content-editor-link" role="group" aria-label="Link">
          <label htmlFor={`${id}-link`}>Link address</label>
          <input
            ref={linkInput}
            id={`${id}-link`}
            type="url"
            autoComplete="off"
            spellCheck={false}
            placeholder="https://"
            value={href}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${id}-link-error` : undefined}
            onChange={(event) => {
              setHref(event.target.value)
              setProblem(null)
            }}
            onKeyDown={onLinkKeyDown}
          />
          <button type="button" onClick={applyLink} onKeyDown={onLinkKeyDown}>
            Apply
          </button>
          {state?.link && (
            <button type="button" className="secondary" onClick={removeLink} onKeyDown={onLinkKeyDown}>
              Remove link
            </button>
          )}
          <button type="button" className="secondary" onClick={closeField} onKeyDown={onLinkKeyDown}>
            Cancel
          </button>
          {problem && (
            <p id={`${id}-link-error`} className="field-error" role="alert">
              {problem}
            </p>
          )}
        </div>
      )}
      {field === 'photo' && <ContentPhotoField id={`${id}-photo-field`} postId={postId} onInsert={insertPhoto} onClose={closeField} />}
      <EditorContent editor={editor} className="content-editor-area" />
    </div>
  )
}
