/** A task on a page of its own (`/w/:workspaceId/work/tasks/:taskId`): where notifications and links lead. */
import { useEffect } from "react"
import { useParams } from "react-router"
import { $api } from "../../api/client.ts"
import { TaskDetail } from "./TaskDetail.tsx"

export const TaskPage = () => {
  const { taskId = "" } = useParams()
  const task = $api.useQuery("get", "/pm/v1/tasks/{taskId}", { params: { path: { taskId } } })
  useEffect(() => {
    if (task.data) document.title = `${task.data.name} · Work · Atrium`
  }, [task.data])
  return <TaskDetail taskId={taskId} key={taskId} headingLevel={1} />
}
