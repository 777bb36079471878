/**
 * ProseMirror JSON on the shared rich-text schema (richtext/) as React
 * elements: the nodes and marks feedback posts use. Unknown nodes render
 * their children, so a newer schema never hides text.
 */
import type { ReactNode } from "react"
import type { components } from "../../api/generated/feedback.ts"

export interface RichNode {
  readonly type: string
  readonly attrs?: Record<string, unknown>
  readonly content?: ReadonlyArray<RichNode>
  readonly marks?: ReadonlyArray<{ readonly type: string; readonly attrs?: Record<string, unknown> }>
  readonly text?: string
}

const safeHref = (href: unknown): string | undefined => (typeof href === "string" && /^(https?:|mailto:|\/)/i.test(href) ? href : undefined)

const marked = (node: RichNode, key: number): ReactNode =>
  (node.marks ?? []).reduce<ReactNode>(
    (inner, mark) => {
      switch (mark.type) {
        case "bold":
          return <strong>{inner}</strong>
        case "italic":
          return <em>{inner}</em>
        case "strike":
          return <s>{inner}</s>
        case "code":
          return <code>{inner}</code>
        case "highlight":
          return <mark>{inner}</mark>
        case "link": {
          const href = safeHref(mark.attrs?.href)
          return href ? <a href={href}>{inner}</a> : inner
        }
        default:
          return inner
      }
    },
    <span key={key}>{node.text}</span>
  )

const children = (node: RichNode): ReactNode => node.content?.map((child, index) => render(child, index))

const render = (node: RichNode, key: number): ReactNode => {
  switch (node.type) {
    case "doc":
      return <div key={key}>{children(node)}</div>
    case "paragraph":
      return <p key={key}>{children(node)}</p>
    case "heading": {
      // Inside a post, headings sit below the page's own (h1) and the post's title (h2).
      const level = Math.min(6, Math.max(3, Number(node.attrs?.level ?? 3) + 2))
      const Tag = `h${level}` as "h3"
      return <Tag key={key}>{children(node)}</Tag>
    }
    case "bulletList":
    case "taskList":
      return <ul key={key}>{children(node)}</ul>
    case "orderedList":
      return <ol key={key}>{children(node)}</ol>
    case "listItem":
    case "taskItem":
      return <li key={key}>{children(node)}</li>
    case "blockquote":
      return <blockquote key={key}>{children(node)}</blockquote>
    case "codeBlock":
      return (
        <pre key={key}>
          <code>{node.content?.map((child) => child.text ?? "").join("")}</code>
        </pre>
      )
    case "horizontalRule":
      return <hr key={key} />
    case "hardBreak":
      return <br key={key} />
    case "mention":
      return <span key={key}>@{String(node.attrs?.label ?? node.attrs?.id ?? "")}</span>
    case "text":
      return marked(node, key)
    default:
      return <span key={key}>{children(node)}</span>
  }
}

export const RichText = ({ doc }: { readonly doc: RichNode | null | undefined }) =>
  doc ? <div className="rich-text">{render(doc, 0)}</div> : null

/** A plain-text description as a document: one paragraph per paragraph of text. */
export const docOf = (text: string): components["schemas"]["ProseMirrorNode"] => ({
  type: "doc",
  content: text
    .split(/\n{2,}/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== "")
    .map((paragraph) => ({ type: "paragraph", content: [{ type: "text", text: paragraph }] }))
})
