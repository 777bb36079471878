/**
 * The Atrium web app: sign in, pick a workspace, then the wiki (space tree,
 * live editor, versions, comments), a board (a list by status, live) or a
 * feedback board's roadmap (live). Hash routes keep it a static bundle:
 * `#/w/{workspaceId}/wiki/{spaceId}/{pageId}`, `#/w/{workspaceId}/board/{listId}`,
 * `#/w/{workspaceId}/feedback/{boardId}`, and without signing in a public
 * board's roadmap `#/feedback/{slug}[/{workspaceId}]`.
 */
import { api, currentSession, setSession } from "./api.ts"
import { showBoard } from "./board/Board.ts"
import { h, mount } from "./dom.ts"
import { showRoadmap } from "./feedback/Roadmap.ts"
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
  const parts = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent)
  if (parts[0] === "feedback" && parts[1] !== undefined) {
    cleanup = showRoadmap(main, { kind: "public", slug: parts[1], workspaceId: parts[2] })
    main.focus({ preventScroll: true })
    return
  }
  if (currentSession() === undefined) {
    showSignIn(main, () => route())
    return
  }
  const [w, workspaceId, section, first, second] = parts
  if (w !== "w" || workspaceId === undefined) cleanup = showWorkspaces(main)
  else if (section === "wiki" && first !== undefined) cleanup = showWiki(main, workspaceId, first, second)
  else if (section === "board" && first !== undefined) cleanup = showBoard(main, workspaceId, first)
  else if (section === "feedback" && first !== undefined) cleanup = showRoadmap(main, { kind: "board", workspaceId, boardId: first })
  else cleanup = showWorkspace(main, workspaceId)
  main.focus({ preventScroll: true })
}

window.addEventListener("hashchange", route)
window.addEventListener("atrium:signed-out", () => route())
route()
