/** The page's versions, newest first, each restorable (the restore reaches open editors live). */
import { api } from "../api.ts"
import { announce, h, mount } from "../dom.ts"

interface Version {
  readonly id: string
  readonly number: number
  readonly reason: string
  readonly label: string | null
  readonly characters: number
  readonly createdAt: string
}

export const showVersions = (panel: HTMLElement, pageId: string) => {
  const list = h("ol", { className: "version-list", reversed: true })
  let stopped = false
  const load = async () => {
    const { items } = await api<{ items: Array<Version> }>("GET", `/wiki/v1/pages/${encodeURIComponent(pageId)}/versions?limit=20`)
    if (stopped) return
    mount(
      list,
      ...items.map((version) =>
        h(
          "li",
          {},
          h("span", {}, `v${version.number} · ${version.label ?? version.reason} · ${new Date(version.createdAt).toLocaleString()}`),
          h(
            "button",
            {
              type: "button",
              "aria-label": `Restore version ${version.number}`,
              onclick: async () => {
                await api("POST", `/wiki/v1/pages/${encodeURIComponent(pageId)}/versions/${encodeURIComponent(version.id)}/restore`)
                announce(`Version ${version.number} restored`)
                await load()
              }
            },
            "Restore"
          )
        )
      )
    )
    if (items.length === 0) mount(list, h("li", { className: "muted" }, "No versions yet (one is captured while people edit)."))
  }
  mount(panel, h("h2", { id: "versions-title" }, "Versions"), list, h("button", { type: "button", onclick: () => void load() }, "Refresh"))
  void load()
  return () => {
    stopped = true
  }
}
