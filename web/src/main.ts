/**
 * The Atrium web app: sign in, pick a workspace, then the wiki (space tree,
 * live editor, versions, comments) or a board (a list by status, live).
 * Hash routes keep it a static bundle: `#/w/{workspaceId}/wiki/{spaceId}/{pageId}`,
 * `#/w/{workspaceId}/board/{listId}`.
 */
import { api, currentSession, setSession } from "./api.ts"
import { showBoard } from "./board/Board.ts"
import { h, mount } from "./dom.ts"
import { showSignIn } from "./SignIn.ts"
import { showWiki } from "./wiki/Wiki.ts"
import { showWorkspace, showWorkspaces } from "./Workspaces.ts"

const main = document.getElementById("main")!
const header = document.getElementById("account")!

/** What the current view leaves behind when the route changes (sockets, editors). */
let cleanup: (() => void) | undefined

const renderAccount = () => {
  const session = currentSession()
  if (session === undefined) return mount(header)
  mount(
    header,
    h("span", { className: "who" }, session.user.name),
    h(
      "button",
      {
        type: "button",
        onclick: async () => {
          await api("POST", "/pm/v1/auth/logout", { refreshToken: session.refreshToken }).catch(() => undefined)
          setSession(undefined)
          location.hash = "#/"
          route()
        }
      },
      "Sign out"
    )
  )
}

const route = () => {
  cleanup?.()
  cleanup = undefined
  renderAccount()
  if (currentSession() === undefined) {
    showSignIn(main, () => route())
    return
  }
  const parts = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent)
  const [w, workspaceId, section, first, second] = parts
  if (w !== "w" || workspaceId === undefined) cleanup = showWorkspaces(main)
  else if (section === "wiki" && first !== undefined) cleanup = showWiki(main, workspaceId, first, second)
  else if (section === "board" && first !== undefined) cleanup = showBoard(main, workspaceId, first)
  else cleanup = showWorkspace(main, workspaceId)
  main.focus({ preventScroll: true })
}

window.addEventListener("hashchange", route)
window.addEventListener("atrium:signed-out", () => route())
route()
