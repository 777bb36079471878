/**
 * The live page editor: Tiptap (React bindings) on the schema shared with the
 * server (richtext/Extensions.ts), bound to the page's Yjs document
 * over Hocuspocus (`/wiki/v1/collab`, document name = page id, token = the
 * JWT, refreshed when a reconnect finds it expired), with collaboration
 * carets labelled by name and colour, who is editing now (the awareness
 * states), and a formatting toolbar.
 *
 * The document, provider and editor live and die together in one effect (the
 * editor's Collaboration plugins must go before the provider they listen to); the
 * editor is made once the document first holds the server's content.
 */
import { HocuspocusProvider } from "@hocuspocus/provider"
import Collaboration from "@tiptap/extension-collaboration"
import CollaborationCaret from "@tiptap/extension-collaboration-caret"
import { ListKeymap } from "@tiptap/extension-list"
import { Dropcursor, Gapcursor, TrailingNode } from "@tiptap/extensions"
import { Editor, EditorContent, useEditorState } from "@tiptap/react"
import { useEffect, useState, useSyncExternalStore } from "react"
import * as Y from "yjs"
import { richTextExtensions } from "../../../../richtext/Extensions.ts"
import { currentSession, freshAccessToken } from "../../api/session.ts"

const COLORS = ["#e5484d", "#30a46c", "#0090ff", "#f76b15", "#8e4ec6", "#d6409f", "#12a594", "#ad7f58"]

/** A stable colour per user, so everyone sees the same one. */
export const colorOf = (userId: string) => {
  let hash = 0
  for (const char of userId) hash = (hash * 31 + char.charCodeAt(0)) >>> 0
  return COLORS[hash % COLORS.length]!
}

interface Person {
  readonly name: string
  readonly color: string
}

export interface LivePage {
  readonly editor: Editor
  readonly provider: HocuspocusProvider
}

const socketUrl = (path: string) => `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${path}`

/** Opens the page's live document and its editor for as long as the component using it lives. */
export const useLivePage = (pageId: string): LivePage | undefined => {
  const [live, setLive] = useState<LivePage>()
  useEffect(() => {
    const session = currentSession()
    const document = new Y.Doc()
    const provider = new HocuspocusProvider({
      url: socketUrl("/wiki/v1/collab"),
      name: pageId,
      document,
      token: async () => (await freshAccessToken()) ?? ""
    })
    const user: Person = { name: session?.user.name ?? "Someone", color: colorOf(session?.user.id ?? "") }
    let editor: Editor | undefined
    // The editor binds to the document once it holds the server's content: an editor bound to an empty document
    // writes its own empty paragraph into it, which every other copy then merges in.
    const bind = () => {
      if (editor !== undefined) return
      editor = new Editor({
        extensions: [
          ...richTextExtensions,
          Collaboration.configure({ document, field: "default" }),
          CollaborationCaret.configure({ provider, user }),
          ListKeymap,
          Dropcursor,
          Gapcursor,
          TrailingNode
        ],
        editorProps: { attributes: { "aria-label": "Page content", "aria-multiline": "true", role: "textbox", spellcheck: "true" } }
      })
      setLive({ editor, provider })
    }
    provider.on("synced", bind)
    return () => {
      provider.off("synced", bind)
      editor?.destroy()
      provider.destroy()
      document.destroy()
    }
  }, [pageId])
  return live
}

/** Everyone with the page open (one entry per name and colour: a person in two tabs is listed once). */
const usePresence = (provider: HocuspocusProvider): ReadonlyArray<Person> => {
  const [people, setPeople] = useState<ReadonlyArray<Person>>([])
  useEffect(() => {
    const awareness = provider.awareness
    if (awareness === null) return
    const read = () => {
      const seen = new Map<string, Person>()
      for (const state of awareness.getStates().values()) {
        const who = (state as { user?: Person }).user
        if (who?.name) seen.set(`${who.name}|${who.color}`, who)
      }
      setPeople([...seen.values()])
    }
    awareness.on("change", read)
    read()
    return () => awareness.off("change", read)
  }, [provider])
  return people
}

/** Whether the socket is synced, to say so while it is not. */
const useSynced = (provider: HocuspocusProvider) =>
  useSyncExternalStore(
    (changed) => {
      provider.on("synced", changed)
      provider.on("status", changed)
      return () => {
        provider.off("synced", changed)
        provider.off("status", changed)
      }
    },
    () => provider.isSynced
  )

export const Presence = ({ provider }: { readonly provider: HocuspocusProvider }) => {
  const people = usePresence(provider)
  const synced = useSynced(provider)
  return (
    <div className="presence-box">
      <span className="muted">{synced ? "Editing now: " : "Connecting… "}</span>
      <ul className="presence" aria-label="Editing now">
        {people.map((who) => (
          <li key={`${who.name}|${who.color}`} className="person">
            <span className="swatch" style={{ background: who.color }} aria-hidden="true" />
            {who.name}
          </li>
        ))}
      </ul>
    </div>
  )
}

const TOOLS = [
  { label: "Bold", active: (e: Editor) => e.isActive("bold"), run: (e: Editor) => e.chain().focus().toggleBold().run() },
  { label: "Italic", active: (e: Editor) => e.isActive("italic"), run: (e: Editor) => e.chain().focus().toggleItalic().run() },
  {
    label: "Heading",
    active: (e: Editor) => e.isActive("heading", { level: 2 }),
    run: (e: Editor) => e.chain().focus().toggleHeading({ level: 2 }).run()
  },
  { label: "Bullets", active: (e: Editor) => e.isActive("bulletList"), run: (e: Editor) => e.chain().focus().toggleBulletList().run() },
  { label: "Tasks", active: (e: Editor) => e.isActive("taskList"), run: (e: Editor) => e.chain().focus().toggleTaskList().run() },
  { label: "Code", active: (e: Editor) => e.isActive("codeBlock"), run: (e: Editor) => e.chain().focus().toggleCodeBlock().run() }
] as const

export const Toolbar = ({ editor }: { readonly editor: Editor }) => {
  const active = useEditorState({ editor, selector: ({ editor: e }) => TOOLS.map((tool) => tool.active(e)) })
  return (
    <div className="toolbar" role="toolbar" aria-label="Formatting">
      {TOOLS.map((tool, index) => (
        <button key={tool.label} type="button" aria-pressed={active[index] ?? false} onClick={() => tool.run(editor)}>
          {tool.label}
        </button>
      ))}
    </div>
  )
}

export const PageContent = ({ editor }: { readonly editor: Editor }) => <EditorContent editor={editor} className="editor card" />
