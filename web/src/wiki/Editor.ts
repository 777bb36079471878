/**
 * The live editor: Tiptap on the schema shared with the server
 * (richtext/Extensions.ts), bound to the page's Yjs document over
 * Hocuspocus (`/wiki/v1/collab`, document name = page id, token = the JWT),
 * with collaboration carets labelled by name and colour.
 */
import { HocuspocusProvider } from "@hocuspocus/provider"
import { Editor } from "@tiptap/core"
import Collaboration from "@tiptap/extension-collaboration"
import CollaborationCaret from "@tiptap/extension-collaboration-caret"
import { ListKeymap } from "@tiptap/extension-list"
import { Dropcursor, Gapcursor, TrailingNode } from "@tiptap/extensions"
import * as Y from "yjs"
import { richTextExtensions } from "../../../richtext/Extensions.ts"
import { currentSession, refresh } from "../api.ts"
import { h, mount } from "../dom.ts"

const COLORS = ["#e5484d", "#30a46c", "#0090ff", "#f76b15", "#8e4ec6", "#d6409f", "#12a594", "#ad7f58"]

/** A stable colour per user, so everyone sees the same one. */
export const colorOf = (userId: string) => {
  let hash = 0
  for (const char of userId) hash = (hash * 31 + char.charCodeAt(0)) >>> 0
  return COLORS[hash % COLORS.length]!
}

const socketUrl = (path: string) => `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${path}`

/** When a JWT expires (ms since the epoch; 0 when unreadable). */
const expiresAt = (jwt: string): number => {
  try {
    const payload = jwt.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/")
    return Number(JSON.parse(atob(payload)).exp) * 1000 || 0
  } catch {
    return 0
  }
}

export interface LiveEditor {
  readonly editor: Editor
  readonly destroy: () => void
}

interface AwarenessUser {
  readonly name: string
  readonly color: string
}

export const startEditor = (host: HTMLElement, toolbar: HTMLElement, presence: HTMLElement, pageId: string): LiveEditor => {
  const session = currentSession()!
  const document = new Y.Doc()
  const provider = new HocuspocusProvider({
    url: socketUrl("/wiki/v1/collab"),
    name: pageId,
    document,
    // A reconnect after the access token expired asks for a fresh one.
    token: async () => {
      if (expiresAt(currentSession()?.accessToken ?? "") < Date.now() + 5000) await refresh()
      return currentSession()?.accessToken ?? ""
    }
  })
  const user: AwarenessUser = { name: session.user.name, color: colorOf(session.user.id) }
  const editor = new Editor({
    element: host,
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

  const renderPresence = () => {
    const people = new Map<string, AwarenessUser>()
    for (const state of provider.awareness?.getStates().values() ?? []) {
      const who = (state as { user?: AwarenessUser }).user
      if (who?.name) people.set(`${who.name}|${who.color}`, who)
    }
    mount(
      presence,
      ...[...people.values()].map((who) =>
        h(
          "li",
          { className: "person" },
          h("span", { className: "swatch", style: `background:${who.color}`, "aria-hidden": "true" }),
          who.name
        )
      )
    )
  }
  provider.awareness?.on("change", renderPresence)
  renderPresence()

  const button = (label: string, run: () => boolean, active: () => boolean) => {
    const element = h("button", { type: "button", "aria-pressed": "false", onclick: () => run() }, label)
    editor.on("transaction", () => element.setAttribute("aria-pressed", String(active())))
    return element
  }
  mount(
    toolbar,
    button(
      "Bold",
      () => editor.chain().focus().toggleBold().run(),
      () => editor.isActive("bold")
    ),
    button(
      "Italic",
      () => editor.chain().focus().toggleItalic().run(),
      () => editor.isActive("italic")
    ),
    button(
      "Heading",
      () => editor.chain().focus().toggleHeading({ level: 2 }).run(),
      () => editor.isActive("heading", { level: 2 })
    ),
    button(
      "Bullets",
      () => editor.chain().focus().toggleBulletList().run(),
      () => editor.isActive("bulletList")
    ),
    button(
      "Tasks",
      () => editor.chain().focus().toggleTaskList().run(),
      () => editor.isActive("taskList")
    ),
    button(
      "Code",
      () => editor.chain().focus().toggleCodeBlock().run(),
      () => editor.isActive("codeBlock")
    )
  )

  return {
    editor,
    destroy: () => {
      editor.destroy()
      provider.destroy()
      document.destroy()
    }
  }
}
