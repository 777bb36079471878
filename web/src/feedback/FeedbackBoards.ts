/**
 * The workspace's feedback boards (those the caller may see), each linking to
 * its roadmap, and a form that opens any public board's roadmap by its slug.
 */
import { api } from "../api.ts"
import { h, mount } from "../dom.ts"

interface FeedbackBoard {
  readonly id: string
  readonly name: string
  readonly slug: string
  readonly visibility: string
}

/** The route of a public board's roadmap; the workspace settles a slug several workspaces use. */
export const publicRoadmapRoute = (slug: string, workspaceId?: string) =>
  `#/feedback/${encodeURIComponent(slug)}${workspaceId === undefined ? "" : `/${encodeURIComponent(workspaceId)}`}`

export const feedbackCard = (workspaceId: string) => {
  const list = h("div", {}, h("p", {}, "Loading boards…"))
  const slug = h("input", { id: "feedback-slug", name: "slug", required: true, autocomplete: "off", placeholder: "product-ideas" })
  void api<{ items: Array<FeedbackBoard> }>("GET", `/feedback/v1/boards?workspaceId=${encodeURIComponent(workspaceId)}`).then(
    ({ items }) =>
      mount(
        list,
        items.length === 0
          ? h("p", {}, "No feedback boards yet.")
          : h(
              "ul",
              { className: "links" },
              ...items.map((b) =>
                h(
                  "li",
                  {},
                  h("a", { href: `#/w/${workspaceId}/feedback/${b.id}` }, `${b.name} roadmap`),
                  h("span", { className: "muted" }, ` · ${b.visibility}`)
                )
              )
            )
      ),
    () => mount(list, h("p", { className: "error", role: "alert" }, "The feedback boards could not be loaded"))
  )
  return h(
    "section",
    { className: "card", "aria-labelledby": "feedback-title" },
    h("h1", { id: "feedback-title" }, "Feedback"),
    list,
    h(
      "form",
      {
        onsubmit: (event: SubmitEvent) => {
          event.preventDefault()
          const value = slug.value.trim()
          if (value !== "") location.hash = publicRoadmapRoute(value, workspaceId)
        }
      },
      h("div", { className: "field" }, h("label", { for: "feedback-slug" }, "Public board slug"), slug),
      h("button", { type: "submit" }, "Open public roadmap")
    )
  )
}
