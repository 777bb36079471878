/** The feature requests and bug reports a task delivers, with their vote counts (on boards the reader may see). */
import { Link } from "react-router"
import { $api } from "../../api/client.ts"
import { ErrorMessage } from "../../ui/Status.tsx"

export const TaskFeedback = ({ taskId, workspaceId }: { readonly taskId: string; readonly workspaceId: string }) => {
  const linked = $api.useQuery("get", "/pm/v1/tasks/{taskId}/feedback", { params: { path: { taskId } } })
  if (linked.data !== undefined && linked.data.items.length === 0) return null
  return (
    <section aria-labelledby="task-feedback-title">
      <h3 id="task-feedback-title">Delivers</h3>
      {linked.error ? <ErrorMessage error={linked.error} /> : null}
      <ul className="plain">
        {linked.data?.items.map((item) => (
          <li key={item.id}>
            {item.kind === "request" ? (
              <Link to={`/w/${workspaceId}/feedback/${item.boardId}/requests/${item.id}`}>
                {item.shortId} {item.title}
              </Link>
            ) : (
              <span>
                {item.shortId} {item.title}
              </span>
            )}{" "}
            <span className="muted">
              · {item.boardName}
              {item.status ? ` · ${item.status}` : ""}
              {item.kind === "request" ? ` · ${item.voteCount} vote${item.voteCount === 1 ? "" : "s"}` : ""}
            </span>
          </li>
        ))}
      </ul>
    </section>
  )
}
