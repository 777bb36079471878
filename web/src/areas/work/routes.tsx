/** Project management: the space → folder → list navigation beside a list's views, a space's sprints, a sprint, dashboards. */
import { useEffect } from "react"
import { Route, Routes } from "react-router"
import { DashboardPage, Dashboards } from "./Dashboards.tsx"
import { EventRedirect } from "./EventRedirect.tsx"
import { Hierarchy } from "./Hierarchy.tsx"
import { ListPage } from "./ListPage.tsx"
import { SprintPage } from "./SprintPage.tsx"
import { SpaceSprints } from "./Sprints.tsx"
import { TaskPage } from "./TaskPage.tsx"

const Overview = () => {
  useEffect(() => {
    document.title = "Work · Atrium"
  }, [])
  return (
    <section aria-labelledby="work-title">
      <h1 id="work-title">Work</h1>
      <p className="muted">Pick a list to see its tasks.</p>
    </section>
  )
}

export const WorkArea = () => (
  <div className="work">
    <Hierarchy />
    <div className="work-content">
      <Routes>
        <Route index element={<Overview />} />
        <Route path="lists/:listId" element={<ListPage />} />
        <Route path="tasks/:taskId" element={<TaskPage />} />
        <Route path="spaces/:spaceId/sprints" element={<SpaceSprints />} />
        <Route path="sprints/:sprintId" element={<SprintPage />} />
        <Route path="dashboards" element={<Dashboards />} />
        <Route path="dashboards/:dashboardId" element={<DashboardPage />} />
        <Route path="events/:seq" element={<EventRedirect />} />
      </Routes>
    </div>
  </div>
)
