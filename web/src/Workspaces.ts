/** Pick a workspace, then one of its wiki spaces, lists (boards) or feedback boards. */
import { api } from "./api.ts"
import { h, mount } from "./dom.ts"
import { feedbackCard } from "./feedback/FeedbackBoards.ts"

interface Workspace {
  readonly id: string
  readonly name: string
  readonly role: string
}

export const showWorkspaces = (main: HTMLElement) => {
  mount(main, h("p", {}, "Loading workspaces…"))
  let live = true
  void api<{ items: Array<Workspace> }>("GET", "/pm/v1/workspaces").then(({ items }) => {
    if (!live) return
    if (items.length === 1) {
      location.hash = `#/w/${items[0]!.id}`
      return
    }
    mount(
      main,
      h(
        "section",
        { className: "card" },
        h("h1", {}, "Workspaces"),
        items.length === 0
          ? h("p", {}, "You are not a member of any workspace yet.")
          : h("ul", { className: "links" }, ...items.map((w) => h("li", {}, h("a", { href: `#/w/${w.id}` }, w.name), ` (${w.role})`)))
      )
    )
  })
  return () => {
    live = false
  }
}

interface WikiSpace {
  readonly id: string
  readonly name: string
  readonly icon: string | null
}
interface List {
  readonly id: string
  readonly name: string
  readonly spaceName?: string
  readonly folderName?: string | null
}

export const showWorkspace = (main: HTMLElement, workspaceId: string) => {
  mount(main, h("p", {}, "Loading…"))
  let live = true
  void Promise.all([
    api<{ items: Array<WikiSpace> }>("GET", `/wiki/v1/spaces?workspaceId=${encodeURIComponent(workspaceId)}`),
    api<{ items: Array<List> }>("GET", `/pm/v1/workspaces/${encodeURIComponent(workspaceId)}/lists`)
  ]).then(([spaces, lists]) => {
    if (!live) return
    mount(
      main,
      h(
        "div",
        { className: "columns" },
        h(
          "section",
          { className: "card", "aria-labelledby": "wiki-title" },
          h("h1", { id: "wiki-title" }, "Wiki"),
          spaces.items.length === 0
            ? h("p", {}, "No wiki spaces yet.")
            : h(
                "ul",
                { className: "links" },
                ...spaces.items.map((s) =>
                  h("li", {}, h("a", { href: `#/w/${workspaceId}/wiki/${s.id}` }, `${s.icon ?? ""} ${s.name}`.trim()))
                )
              )
        ),
        h(
          "section",
          { className: "card", "aria-labelledby": "boards-title" },
          h("h1", { id: "boards-title" }, "Boards"),
          lists.items.length === 0
            ? h("p", {}, "No lists yet.")
            : h(
                "ul",
                { className: "links" },
                ...lists.items.map((l) =>
                  h(
                    "li",
                    {},
                    h("a", { href: `#/w/${workspaceId}/board/${l.id}` }, l.name),
                    l.spaceName ? h("span", { className: "muted" }, ` · ${l.spaceName}${l.folderName ? ` / ${l.folderName}` : ""}`) : null
                  )
                )
              )
        ),
        feedbackCard(workspaceId)
      )
    )
  })
  return () => {
    live = false
  }
}
