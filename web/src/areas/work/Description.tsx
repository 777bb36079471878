/**
 * A task's description as rich text: Tiptap (React bindings) on the schema
 * shared with the server, stored as Markdown (richtext/Markdown.ts,
 * the same round trip agents use). Edits stay local until saved; a remote
 * change does not overwrite unsaved text, and leaving the page with unsaved
 * text asks first.
 */
import { UndoRedo } from "@tiptap/extensions"
import { EditorContent, type JSONContent, useEditor, useEditorState } from "@tiptap/react"
import { useEffect, useState } from "react"
import { richTextExtensions } from "../../../../richtext/Extensions.ts"
import { docToMarkdown, markdownToDoc } from "../../../../richtext/Markdown.ts"
import type { ProseMirrorNode } from "../../../../richtext/Schema.ts"

/**
 * Chromium writes a space typed where a text run ends (before a mark starts, say) as a no-break space, and
 * ProseMirror reads it back from the page as typed: the stored Markdown gets plain spaces, as the user typed them.
 */
const withPlainSpaces = (markdown: string) => markdown.replaceAll("\u00a0", " ")

/** The stored Markdown as editor content (the shared schema's JSON; Tiptap's type only differs in mutability). */
const contentOf = (markdown: string) => markdownToDoc(markdown) as JSONContent

const toolbar = [
  { label: "Bold", mark: "bold", run: (e: NonNullable<ReturnType<typeof useEditor>>) => e.chain().focus().toggleBold().run() },
  { label: "Italic", mark: "italic", run: (e: NonNullable<ReturnType<typeof useEditor>>) => e.chain().focus().toggleItalic().run() },
  {
    label: "Bullets",
    mark: "bulletList",
    run: (e: NonNullable<ReturnType<typeof useEditor>>) => e.chain().focus().toggleBulletList().run()
  },
  { label: "Code", mark: "codeBlock", run: (e: NonNullable<ReturnType<typeof useEditor>>) => e.chain().focus().toggleCodeBlock().run() }
] as const

export const Description = ({
  markdown,
  onSave,
  canEdit
}: {
  readonly markdown: string
  readonly onSave: (markdown: string) => Promise<boolean>
  readonly canEdit: boolean
}) => {
  const [dirty, setDirty] = useState(false)
  const [saving, setSaving] = useState(false)
  const editor = useEditor({
    extensions: [...richTextExtensions, UndoRedo],
    content: contentOf(markdown),
    editable: canEdit,
    editorProps: { attributes: { "aria-label": "Description", "aria-multiline": "true", role: "textbox" } },
    onUpdate: () => setDirty(true)
  })
  const active = useEditorState({
    editor,
    selector: ({ editor: e }) => Object.fromEntries(toolbar.map((item) => [item.mark, e?.isActive(item.mark) ?? false]))
  })

  // A change saved elsewhere replaces the text only while nothing here is unsaved.
  useEffect(() => {
    if (editor === null || dirty) return
    if (withPlainSpaces(docToMarkdown(editor.getJSON() as ProseMirrorNode)) !== markdown)
      editor.commands.setContent(contentOf(markdown), { emitUpdate: false })
  }, [editor, markdown, dirty])

  useEffect(() => {
    if (!dirty) return
    const warn = (event: BeforeUnloadEvent) => event.preventDefault()
    window.addEventListener("beforeunload", warn)
    return () => window.removeEventListener("beforeunload", warn)
  }, [dirty])

  const save = async () => {
    if (editor === null) return
    setSaving(true)
    if (await onSave(withPlainSpaces(docToMarkdown(editor.getJSON() as ProseMirrorNode)))) setDirty(false)
    setSaving(false)
  }
  const discard = () => {
    editor?.commands.setContent(contentOf(markdown), { emitUpdate: false })
    setDirty(false)
  }

  return (
    <div className="description">
      {canEdit ? (
        <div className="toolbar" role="toolbar" aria-label="Description formatting">
          {toolbar.map((item) => (
            <button
              key={item.label}
              type="button"
              aria-pressed={active?.[item.mark] ?? false}
              // The editor keeps the focus (a mouse press would move it to the button): a space typed right after
              // clicking Bold must go into the text, not press the button again and turn bold off.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => editor !== null && item.run(editor)}
            >
              {item.label}
            </button>
          ))}
        </div>
      ) : null}
      <EditorContent editor={editor} className="editor card" />
      {dirty ? (
        <div className="actions">
          <button type="button" className="primary" onClick={() => void save()} disabled={saving}>
            Save description
          </button>
          <button type="button" onClick={discard}>
            Discard changes
          </button>
          <span className="muted">Unsaved changes</span>
        </div>
      ) : null}
    </div>
  )
}
