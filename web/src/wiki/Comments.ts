/** Comments anchored to text: select text, write, post; each comment can show (select) its quote in the editor. */
import type { Editor } from "@tiptap/core"
import { ApiError, api } from "../api.ts"
import { announce, h, mount } from "../dom.ts"
import type { LiveEditor } from "./Editor.ts"

interface Comment {
  readonly id: string
  readonly body: string
  readonly author: { readonly name: string }
  readonly anchor: { readonly quote: string; readonly detached: boolean } | null
  readonly resolved: boolean
  readonly createdAt: string
}

/** The document range holding `quote` (text across nodes joined as the editor shows it), if any. */
const rangeOf = (editor: Editor, quote: string): { from: number; to: number } | undefined => {
  let flat = ""
  const positions: Array<number> = []
  editor.state.doc.descendants((node, pos) => {
    if (node.isText) {
      for (let i = 0; i < node.text!.length; i++) positions.push(pos + i)
      flat += node.text
    } else if (node.isBlock && flat !== "" && !flat.endsWith("\n")) {
      positions.push(pos)
      flat += "\n"
    }
  })
  const start = flat.indexOf(quote)
  if (start === -1 || quote === "") return undefined
  return { from: positions[start]!, to: positions[start + quote.length - 1]! + 1 }
}

export const showComments = (panel: HTMLElement, pageId: string, live: LiveEditor) => {
  const { editor } = live
  const list = h("ol", { className: "comment-list" })
  const body = h("textarea", { name: "comment", rows: 3, required: true })
  const quote = h("p", { className: "quote muted" }, "Select text in the page to anchor a comment to it.")
  const error = h("p", { className: "error", role: "alert" })
  let selected = ""
  let stopped = false

  const onSelection = () => {
    const { from, to } = editor.state.selection
    selected = from === to ? "" : editor.state.doc.textBetween(from, to, "\n").slice(0, 500)
    quote.textContent = selected === "" ? "Select text in the page to anchor a comment to it." : `On: “${selected}”`
  }
  editor.on("selectionUpdate", onSelection)

  const load = async () => {
    const { items } = await api<{ items: Array<Comment> }>("GET", `/wiki/v1/pages/${encodeURIComponent(pageId)}/comments?status=open`)
    if (stopped) return
    mount(
      list,
      ...items.map((comment) =>
        h(
          "li",
          { className: "comment" },
          comment.anchor ? h("blockquote", {}, comment.anchor.quote) : null,
          h("p", {}, h("strong", {}, comment.author.name), ": ", comment.body),
          comment.anchor && !comment.anchor.detached
            ? h(
                "button",
                {
                  type: "button",
                  onclick: () => {
                    const range = rangeOf(editor, comment.anchor!.quote)
                    if (range === undefined) return announce("The quoted text is no longer in the page")
                    editor.chain().focus().setTextSelection(range).scrollIntoView().run()
                  }
                },
                "Show in text"
              )
            : null,
          h(
            "button",
            {
              type: "button",
              onclick: async () => {
                await api("POST", `/wiki/v1/comments/${encodeURIComponent(comment.id)}/resolve`)
                announce("Comment resolved")
                await load()
              }
            },
            "Resolve"
          )
        )
      )
    )
  }

  const submit = async (event: Event) => {
    event.preventDefault()
    error.textContent = ""
    try {
      await api("POST", `/wiki/v1/pages/${encodeURIComponent(pageId)}/comments`, {
        body: body.value,
        ...(selected !== "" ? { anchor: { quote: selected } } : {})
      })
      body.value = ""
      announce("Comment added")
      await load()
    } catch (cause) {
      error.textContent = cause instanceof ApiError ? cause.message : "Could not post the comment"
    }
  }

  mount(
    panel,
    h("h2", { id: "comments-title" }, "Comments"),
    list,
    h(
      "form",
      { onsubmit: submit },
      quote,
      h("label", { className: "field" }, h("span", {}, "Comment"), body),
      h("button", { type: "submit" }, "Comment"),
      error
    )
  )
  void load()
  return () => {
    stopped = true
    editor.off("selectionUpdate", onSelection)
  }
}
