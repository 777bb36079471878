/**
 * `/w/:workspaceId/work/events/:seq`: opens what an activity event is about
 * (a notification names its event; the event's path names the task or list).
 */
import { Navigate, useParams } from "react-router"
import { $api } from "../../api/client.ts"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"

export const EventRedirect = () => {
  const { workspaceId = "", seq = "" } = useParams()
  const event = $api.useQuery("get", "/pm/v1/workspaces/{workspaceId}/activity/{seq}", { params: { path: { workspaceId, seq } } })
  if (event.isPending) return <Loading what="where this leads" />
  if (event.error) return <ErrorMessage error={event.error} what="This item could not be opened" />
  const path = event.data.path as Record<string, string | undefined>
  const base = `/w/${workspaceId}/work`
  const target =
    path.taskId !== undefined
      ? `${base}/tasks/${path.taskId}`
      : event.data.scope === "task"
        ? `${base}/tasks/${event.data.entityId}`
        : path.listId !== undefined
          ? `${base}/lists/${path.listId}`
          : base
  return <Navigate to={target} replace />
}
