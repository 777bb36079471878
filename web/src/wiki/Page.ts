/**
 * One page: its title, who is editing it (names and colours from the
 * collaboration awareness), the live editor, and the comments and versions
 * panels.
 */
import { api } from "../api.ts"
import { h, mount } from "../dom.ts"
import { showComments } from "./Comments.ts"
import { startEditor } from "./Editor.ts"
import { showVersions } from "./Versions.ts"

interface Page {
  readonly id: string
  readonly title: string
  readonly icon: string | null
}

export const openPage = (content: HTMLElement, pageId: string) => {
  mount(content, h("p", {}, "Opening page…"))
  let stop: Array<() => void> = []
  let live = true
  void api<Page>("GET", `/wiki/v1/pages/${encodeURIComponent(pageId)}`).then((page) => {
    if (!live) return
    const presence = h("ul", { className: "presence", "aria-label": "Editing now" })
    const editorHost = h("div", { className: "editor card" })
    const toolbar = h("div", { className: "toolbar", role: "toolbar", "aria-label": "Formatting" })
    const comments = h("section", { className: "comments card", "aria-labelledby": "comments-title" })
    const versions = h("section", { className: "versions card", "aria-labelledby": "versions-title" })
    mount(
      content,
      h(
        "article",
        { className: "page" },
        h(
          "header",
          {},
          h("h1", { id: "page-title" }, `${page.icon ?? ""} ${page.title}`.trim()),
          h("div", { className: "presence-box" }, h("span", { className: "muted" }, "Editing now: "), presence)
        ),
        toolbar,
        editorHost
      ),
      h("aside", { className: "side" }, comments, versions)
    )
    const editor = startEditor(editorHost, toolbar, presence, page.id)
    stop = [editor.destroy, showComments(comments, page.id, editor), showVersions(versions, page.id)]
  })
  return () => {
    live = false
    for (const f of stop) f()
  }
}
