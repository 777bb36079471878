/**
 * One feature request for the team and members: its description (rich text),
 * votes, comments (team members may mark theirs internal); board admins
 * change its status and merge it into another request as a duplicate; the
 * team links the pm tasks that deliver it.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { Link, useParams } from "react-router"
import { client } from "../../api/client.ts"
import type { components } from "../../api/generated/feedback.ts"
import { announce } from "../../ui/announce.tsx"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"
import { unwrap } from "../common/result.ts"
import { when } from "../common/time.ts"
import { CommentForm, CommentList } from "./CommentThread.tsx"
import { boardKey, useBoard, usePermissions, useStatuses } from "./queries.ts"
import { RichText } from "./RichText.tsx"

type TeamComment = components["schemas"]["FeedbackComment"]

/** Who wrote it, and what marks it: a visitor's (with the e-mail they left, for the team), an internal note, held. */
const shownComment = (comment: TeamComment) => ({
  id: comment.id,
  author: comment.author?.name ?? comment.visitor?.name ?? "Someone",
  body: comment.deleted ? <em>deleted</em> : comment.body,
  createdAt: comment.createdAt,
  internal: comment.internal,
  notes: [
    ...(comment.visitor ? [comment.visitor.email ? `visitor (${comment.visitor.email})` : "visitor"] : []),
    ...(comment.internal ? ["internal note"] : []),
    ...(comment.moderationState !== "approved" ? [comment.moderationState] : [])
  ]
})

const Comments = ({
  boardId,
  requestId,
  canComment,
  team
}: {
  readonly boardId: string
  readonly requestId: string
  readonly canComment: boolean
  readonly team: boolean
}) => {
  const queryClient = useQueryClient()
  const path = { featureRequestId: requestId }
  const comments = useQuery({
    queryKey: [...boardKey(boardId), "comments", requestId],
    queryFn: () => unwrap(client.GET("/feedback/v1/feature-requests/{featureRequestId}/comments", { params: { path } }))
  })
  const [internal, setInternal] = useState(false)
  return (
    <section aria-labelledby="comments-heading" className="panel">
      <h2 id="comments-heading">Comments</h2>
      {comments.isError ? <ErrorMessage error={comments.error} what="Comments" /> : null}
      <CommentList
        comments={comments.data?.items.map((thread) => ({ ...shownComment(thread), replies: thread.replies.map(shownComment) }))}
      />
      {canComment ? (
        <CommentForm
          send={(body) =>
            unwrap(client.POST("/feedback/v1/feature-requests/{featureRequestId}/comments", { params: { path }, body: { body, internal } }))
          }
          onSent={() => void queryClient.invalidateQueries({ queryKey: boardKey(boardId) })}
          maxLength={10000}
        >
          {team ? (
            <label className="check">
              <input type="checkbox" checked={internal} onChange={(event) => setInternal(event.currentTarget.checked)} /> Internal note
              (team only)
            </label>
          ) : null}
        </CommentForm>
      ) : (
        <p className="muted">Comments are closed for you on this board.</p>
      )}
    </section>
  )
}

const Merge = ({ boardId, requestId }: { readonly boardId: string; readonly requestId: string }) => {
  const queryClient = useQueryClient()
  const [into, setInto] = useState("")
  const candidates = useQuery({
    queryKey: [...boardKey(boardId), "requests", "merge-candidates"],
    queryFn: () =>
      unwrap(
        client.GET("/feedback/v1/boards/{boardId}/feature-requests", {
          params: { path: { boardId }, query: { sort: "top", limit: "100" } }
        })
      )
  })
  const merge = useMutation({
    mutationFn: () =>
      unwrap(
        client.POST("/feedback/v1/feature-requests/{featureRequestId}/merge", {
          params: { path: { featureRequestId: requestId } },
          body: { intoId: into }
        })
      ),
    onSuccess: (result) => {
      announce(`Merged into ${result.featureRequest.shortId}`)
      void queryClient.invalidateQueries({ queryKey: boardKey(boardId) })
    }
  })
  return (
    <form
      className="inline-form"
      onSubmit={(event) => {
        event.preventDefault()
        merge.mutate()
      }}
    >
      <label>
        Merge into
        <select value={into} onChange={(event) => setInto(event.currentTarget.value)} required>
          <option value="">Choose the original…</option>
          {candidates.data?.items
            .filter((candidate) => candidate.id !== requestId && candidate.mergedInto === null)
            .map((candidate) => (
              <option key={candidate.id} value={candidate.id}>
                {candidate.shortId} {candidate.title}
              </option>
            ))}
        </select>
      </label>
      <button type="submit" disabled={into === "" || merge.isPending}>
        Merge duplicate
      </button>
      {merge.isError ? <ErrorMessage error={merge.error} /> : null}
    </form>
  )
}

/** The pm tasks that deliver the request, with their status; the team links more by short id (T-42) and unlinks. */
const Work = ({ boardId, requestId, team }: { readonly boardId: string; readonly requestId: string; readonly team: boolean }) => {
  const queryClient = useQueryClient()
  const board = useBoard(boardId)
  const key = [...boardKey(boardId), "request", requestId, "tasks"]
  const path = { featureRequestId: requestId }
  const tasks = useQuery({
    queryKey: key,
    queryFn: () => unwrap(client.GET("/feedback/v1/feature-requests/{featureRequestId}/tasks", { params: { path } }))
  })
  const changed = () => queryClient.invalidateQueries({ queryKey: boardKey(boardId) })
  const link = useMutation({
    mutationFn: (task: string) =>
      unwrap(
        client.POST("/feedback/v1/lite/feature-requests/{requestRef}/tasks", {
          params: { path: { requestRef: requestId } },
          body: { workspaceId: board.data?.workspaceId ?? "", board: board.data?.slug ?? "", task }
        })
      ),
    onSuccess: () => {
      announce("Task linked")
      void changed()
    }
  })
  const unlink = useMutation({
    mutationFn: (taskId: string) =>
      unwrap(client.DELETE("/feedback/v1/feature-requests/{featureRequestId}/tasks/{taskId}", { params: { path: { ...path, taskId } } })),
    onSuccess: () => {
      announce("Task unlinked")
      void changed()
    }
  })
  const workspaceId = board.data?.workspaceId ?? ""
  return (
    <section aria-labelledby="work-heading" className="panel">
      <h3 id="work-heading">Work</h3>
      {tasks.isError ? <ErrorMessage error={tasks.error} /> : null}
      {tasks.data?.items.length === 0 ? <p className="muted">No linked tasks.</p> : null}
      <ul className="plain">
        {tasks.data?.items.map((task) => (
          <li key={task.taskId}>
            <Link to={`/w/${workspaceId}/work/tasks/${task.taskId}`}>
              {task.shortId} {task.name}
            </Link>{" "}
            <span className="muted">· {task.status.name}</span>{" "}
            {team ? (
              <button type="button" disabled={unlink.isPending} onClick={() => unlink.mutate(task.taskId)}>
                Unlink {task.shortId}
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      {team ? (
        <form
          className="inline-form"
          onSubmit={(event) => {
            event.preventDefault()
            const form = event.currentTarget
            const task = String(new FormData(form).get("task") ?? "").trim()
            if (task !== "") link.mutate(task, { onSuccess: () => form.reset() })
          }}
        >
          <label className="field">
            <span>Link a task (short id)</span>
            <input name="task" required maxLength={100} placeholder="T-42" />
          </label>
          <button type="submit" disabled={link.isPending || board.data === undefined}>
            Link task
          </button>
        </form>
      ) : null}
      {link.isError ? <ErrorMessage error={link.error} /> : null}
      {unlink.isError ? <ErrorMessage error={unlink.error} /> : null}
    </section>
  )
}

export const RequestPage = () => {
  const { boardId = "", requestId = "" } = useParams()
  const queryClient = useQueryClient()
  const permissions = usePermissions(boardId)
  const statuses = useStatuses(boardId)
  const path = { featureRequestId: requestId }
  const request = useQuery({
    queryKey: [...boardKey(boardId), "request", requestId],
    queryFn: () => unwrap(client.GET("/feedback/v1/feature-requests/{featureRequestId}", { params: { path } }))
  })
  const setStatus = useMutation({
    mutationFn: (statusId: string) =>
      unwrap(client.POST("/feedback/v1/feature-requests/{featureRequestId}/status", { params: { path }, body: { statusId } })),
    onSuccess: (updated) => {
      announce(`${updated.shortId} is now ${updated.status?.name ?? "without status"}`)
      void queryClient.invalidateQueries({ queryKey: boardKey(boardId) })
    }
  })
  const vote = useMutation({
    mutationFn: (on: boolean) =>
      unwrap(
        on
          ? client.POST("/feedback/v1/feature-requests/{featureRequestId}/votes", { params: { path } })
          : client.DELETE("/feedback/v1/feature-requests/{featureRequestId}/votes", { params: { path } })
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: boardKey(boardId) })
  })
  if (request.isPending) return <Loading what="the request" />
  if (request.isError) return <ErrorMessage error={request.error} what="Request" />
  const data = request.data
  const team = permissions.data?.team === true
  const admin = permissions.data?.admin === true
  const voted = vote.data?.voted === true
  return (
    <article aria-labelledby="request-title" className="request-page">
      <p className="breadcrumb">
        <Link to="..">All requests</Link>
      </p>
      <h2 id="request-title">
        <span className="muted">{data.shortId}</span> {data.title}
      </h2>
      {data.mergedInto ? (
        <p className="notice">
          Merged into <Link to={`../requests/${data.mergedInto}`}>the original request</Link>; its votes moved there.
        </p>
      ) : null}
      <p className="muted">
        {data.author ? `By ${data.author.name} · ` : ""}
        {when(data.createdAt)} · {data.status?.name ?? "No status"}
        {data.moderationState !== "approved" ? ` · ${data.moderationState}` : ""}
      </p>
      <div className="row">
        <button type="button" aria-pressed={voted} disabled={!permissions.data?.vote || vote.isPending} onClick={() => vote.mutate(!voted)}>
          {voted ? "Remove my vote" : "Vote"}
        </button>
        <span aria-live="polite">
          {String(vote.data?.voteCount ?? data.voteCount)} vote{Number(vote.data?.voteCount ?? data.voteCount) === 1 ? "" : "s"}
        </span>
      </div>
      {vote.isError ? <ErrorMessage error={vote.error} /> : null}
      <RichText doc={data.content} />
      {admin ? (
        <section aria-label="Triage" className="panel">
          <label>
            Status
            <select
              value={data.status?.id ?? ""}
              onChange={(event) => setStatus.mutate(event.currentTarget.value)}
              disabled={setStatus.isPending}
            >
              {data.status === null ? <option value="">No status</option> : null}
              {statuses.data?.items.map((status) => (
                <option key={status.id} value={status.id}>
                  {status.name}
                </option>
              ))}
            </select>
          </label>
          {setStatus.isError ? <ErrorMessage error={setStatus.error} /> : null}
          {data.mergedInto === null ? <Merge boardId={boardId} requestId={requestId} /> : null}
        </section>
      ) : null}
      <Work boardId={boardId} requestId={requestId} team={team} />
      <Comments boardId={boardId} requestId={requestId} canComment={permissions.data?.comment === true} team={team} />
    </article>
  )
}
