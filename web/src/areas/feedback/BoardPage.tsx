/**
 * A team's view of one board, live over the board's stream: requests, the
 * roadmap, bug reports, changelog and milestones, and (for board admins)
 * the moderation queue and how linked work moves requests (on the roadmap).
 */
import { useQuery } from "@tanstack/react-query"
import { useEffect } from "react"
import { Link, NavLink, Route, Routes, useParams } from "react-router"
import { client } from "../../api/client.ts"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"
import { portalHref } from "../common/links.ts"
import { unwrap } from "../common/result.ts"
import { Bugs } from "./Bugs.tsx"
import { Changelog } from "./Changelog.tsx"
import { Moderation } from "./Moderation.tsx"
import { boardKey, liveWords, useBoard, useBoardLive, usePermissions } from "./queries.ts"
import { RequestPage } from "./RequestPage.tsx"
import { Requests } from "./Requests.tsx"
import { type RoadmapColumn, RoadmapView } from "./Roadmap.tsx"
import { WorkProgressSettings } from "./WorkProgressSettings.tsx"

const BoardRoadmap = () => {
  const boardId = useParams().boardId!
  const roadmap = useQuery({
    queryKey: [...boardKey(boardId), "roadmap"],
    queryFn: () => unwrap(client.GET("/feedback/v1/boards/{boardId}/roadmap", { params: { path: { boardId } } }))
  })
  if (roadmap.isPending) return <Loading what="the roadmap" />
  if (roadmap.isError) return <ErrorMessage error={roadmap.error} what="Roadmap" />
  const columns: ReadonlyArray<RoadmapColumn> = roadmap.data.columns.map((column) => ({
    type: column.type,
    items: column.items.filter((item) => item.mergedInto === null)
  }))
  return <RoadmapView columns={columns} linkOf={(card) => `../requests/${card.id}`} />
}

export const BoardPage = () => {
  const { workspaceId = "", boardId = "" } = useParams()
  const board = useBoard(boardId)
  const permissions = usePermissions(boardId)
  const live = useBoardLive(boardId)
  useEffect(() => {
    if (board.data) document.title = `${board.data.name} · Feedback · Atrium`
  }, [board.data])
  if (board.isPending) return <Loading what="the board" />
  if (board.isError) return <ErrorMessage error={board.error} what="Board" />
  const admin = permissions.data?.admin === true
  const boardPath = `/w/${workspaceId}/feedback/${boardId}`
  return (
    <section aria-labelledby="board-title" className="area-page">
      <header className="area-header">
        <p className="breadcrumb">
          <Link to={`/w/${workspaceId}/feedback`}>Feedback</Link>
        </p>
        <h1 id="board-title">{board.data.name}</h1>
        <p className="muted small">
          <span role="status" className="live-state" data-state={live}>
            {liveWords[live]}
          </span>
          {board.data.visibility === "public" ? (
            <>
              {" · "}
              <Link to={portalHref(board.data.slug, workspaceId)}>Public portal</Link>
            </>
          ) : null}
        </p>
        {/* Absolute links: inside this splat route a relative one resolves against the current tab's URL. */}
        <nav aria-label="Board" className="area-tabs">
          <NavLink to={boardPath} end>
            Requests
          </NavLink>
          <NavLink to={`${boardPath}/roadmap`}>Roadmap</NavLink>
          <NavLink to={`${boardPath}/bugs`}>Bugs</NavLink>
          <NavLink to={`${boardPath}/changelog`}>Changelog</NavLink>
          {admin ? <NavLink to={`${boardPath}/moderation`}>Moderation</NavLink> : null}
        </nav>
      </header>
      <Routes>
        <Route index element={<Requests />} />
        <Route path="requests/:requestId" element={<RequestPage />} />
        <Route
          path="roadmap"
          element={
            <>
              {admin ? <WorkProgressSettings boardId={boardId} /> : null}
              <BoardRoadmap />
            </>
          }
        />
        <Route path="bugs" element={<Bugs />} />
        <Route path="changelog" element={<Changelog />} />
        <Route path="moderation" element={admin ? <Moderation /> : <p role="alert">Only the board's admins moderate it.</p>} />
      </Routes>
    </section>
  )
}
