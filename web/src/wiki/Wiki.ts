/** The wiki view: the space's page tree beside the open page (live editor, presence, comments, versions). */
import { api } from "../api.ts"
import { h, mount } from "../dom.ts"
import { openPage } from "./Page.ts"

export interface TreeNode {
  readonly id: string
  readonly title: string
  readonly icon: string | null
  readonly children: ReadonlyArray<TreeNode>
}

const treeList = (nodes: ReadonlyArray<TreeNode>, href: (id: string) => string, current: string | undefined, top = false): HTMLElement =>
  h(
    "ul",
    top ? { role: "tree", "aria-label": "Pages" } : { role: "group" },
    ...nodes.map((node) =>
      h(
        "li",
        {
          role: "treeitem",
          "aria-expanded": node.children.length > 0 ? "true" : undefined,
          "aria-selected": node.id === current ? "true" : "false"
        },
        h(
          "a",
          { href: href(node.id), "aria-current": node.id === current ? "page" : undefined },
          `${node.icon ?? ""} ${node.title}`.trim()
        ),
        node.children.length > 0 ? treeList(node.children, href, current) : null
      )
    )
  )

export const showWiki = (
  main: HTMLElement,
  workspaceId: string,
  spaceId: string,
  pageId: string | undefined,
  navigate: (to: string) => void
) => {
  const href = (id: string) => `/w/${workspaceId}/wiki/${spaceId}/${id}`
  const nav = h("nav", { className: "tree card", "aria-label": "Pages" }, h("p", {}, "Loading pages…"))
  const content = h("div", { className: "page-area" })
  mount(main, h("div", { className: "wiki" }, nav, content))
  let closePage: (() => void) | undefined
  let live = true

  const loadTree = async () => {
    const tree = await api<{ items: Array<TreeNode> }>("GET", `/wiki/v1/spaces/${encodeURIComponent(spaceId)}/tree`)
    if (!live) return tree
    const title = h("input", { type: "text", name: "title", required: true, placeholder: "Page title" })
    const create = h(
      "form",
      {
        className: "new-page",
        onsubmit: async (event: Event) => {
          event.preventDefault()
          const page = await api<{ id: string }>("POST", `/wiki/v1/spaces/${encodeURIComponent(spaceId)}/pages`, { title: title.value })
          navigate(href(page.id))
        }
      },
      h("label", { className: "field" }, h("span", {}, "New page"), title),
      h("button", { type: "submit" }, "Create")
    )
    mount(
      nav,
      h("p", {}, h("a", { href: `/w/${workspaceId}/wiki` }, "← Spaces")),
      tree.items.length === 0 ? h("p", {}, "No pages yet.") : treeList(tree.items, href, pageId, true),
      create
    )
    return tree
  }

  void loadTree().then((tree) => {
    if (!live) return
    const open = pageId ?? tree.items[0]?.id
    if (open === undefined) mount(content, h("p", { className: "card" }, "Create the first page of this space."))
    else closePage = openPage(content, open)
  })

  return () => {
    live = false
    closePage?.()
  }
}
