/**
 * A board's feature requests for the team and members: filter by status,
 * category and product area, sort, vote and unvote, post a new one.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { Link, useParams, useSearchParams } from "react-router"
import { client } from "../../api/client.ts"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"
import { unwrap } from "../common/result.ts"
import { boardKey, useCategories, usePermissions, useProductAreas, useStatuses } from "./queries.ts"
import { docOf } from "./RichText.tsx"
import { type StatusType, statusTypeNames } from "./Roadmap.tsx"

const sorts = { top: "Most votes", new: "Newest", trending: "Trending" } as const

const NewRequest = ({ boardId }: { readonly boardId: string }) => {
  const queryClient = useQueryClient()
  const [title, setTitle] = useState("")
  const [details, setDetails] = useState("")
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        client.POST("/feedback/v1/boards/{boardId}/feature-requests", {
          params: { path: { boardId } },
          body: { title, content: docOf(details) }
        })
      ),
    onSuccess: () => {
      setTitle("")
      setDetails("")
      void queryClient.invalidateQueries({ queryKey: boardKey(boardId) })
    }
  })
  return (
    <details className="panel">
      <summary>New request</summary>
      <form
        className="stack"
        onSubmit={(event) => {
          event.preventDefault()
          create.mutate()
        }}
      >
        <label>
          Title <input value={title} onChange={(event) => setTitle(event.currentTarget.value)} required maxLength={200} />
        </label>
        <label>
          Details <textarea rows={4} value={details} onChange={(event) => setDetails(event.currentTarget.value)} />
        </label>
        <button type="submit" disabled={create.isPending}>
          Post request
        </button>
        {create.isError ? <ErrorMessage error={create.error} /> : null}
        {create.data ? <p role="status">Posted {create.data.shortId}.</p> : null}
      </form>
    </details>
  )
}

export const Requests = () => {
  const boardId = useParams().boardId!
  const queryClient = useQueryClient()
  const [search, setSearch] = useSearchParams()
  const statusType = search.get("status") ?? ""
  const categoryId = search.get("category") ?? ""
  const productAreaId = search.get("area") ?? ""
  const sort = (search.get("sort") ?? "top") as keyof typeof sorts
  const permissions = usePermissions(boardId)
  const statuses = useStatuses(boardId)
  const categories = useCategories(boardId)
  const areas = useProductAreas(boardId)
  const query = {
    sort,
    ...(statusType ? { statusType: statusType as StatusType } : {}),
    ...(categoryId ? { categoryId } : {}),
    ...(productAreaId ? { productAreaId } : {}),
    limit: "100"
  }
  const requests = useQuery({
    queryKey: [...boardKey(boardId), "requests", query],
    queryFn: () => unwrap(client.GET("/feedback/v1/boards/{boardId}/feature-requests", { params: { path: { boardId }, query } }))
  })
  const [voted, setVoted] = useState<ReadonlySet<string>>(new Set())
  const vote = useMutation({
    mutationFn: ({ id, on }: { id: string; on: boolean }) =>
      unwrap(
        on
          ? client.POST("/feedback/v1/feature-requests/{featureRequestId}/votes", { params: { path: { featureRequestId: id } } })
          : client.DELETE("/feedback/v1/feature-requests/{featureRequestId}/votes", { params: { path: { featureRequestId: id } } })
      ),
    onSuccess: (result) => {
      setVoted((current) => {
        const next = new Set(current)
        if (result.voted) next.add(result.featureRequestId)
        else next.delete(result.featureRequestId)
        return next
      })
      void queryClient.invalidateQueries({ queryKey: boardKey(boardId) })
    }
  })
  const setFilter = (name: string, value: string) =>
    setSearch(
      (current) => {
        const next = new URLSearchParams(current)
        if (value === "") next.delete(name)
        else next.set(name, value)
        return next
      },
      { replace: true }
    )
  const statusTypes = [...new Set((statuses.data?.items ?? []).map((status) => status.type))]
  return (
    <div>
      {permissions.data?.post ? <NewRequest boardId={boardId} /> : null}
      <form className="filters" aria-label="Filter requests" onSubmit={(event) => event.preventDefault()}>
        <label>
          Status
          <select value={statusType} onChange={(event) => setFilter("status", event.currentTarget.value)}>
            <option value="">Any</option>
            {statusTypes.map((type) => (
              <option key={type} value={type}>
                {statusTypeNames[type]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Category
          <select value={categoryId} onChange={(event) => setFilter("category", event.currentTarget.value)}>
            <option value="">Any</option>
            {categories.data?.items.map((category) => (
              <option key={category.id} value={category.id}>
                {category.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Product area
          <select value={productAreaId} onChange={(event) => setFilter("area", event.currentTarget.value)}>
            <option value="">Any</option>
            {areas.data?.items.map((area) => (
              <option key={area.id} value={area.id}>
                {area.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Sort
          <select value={sort} onChange={(event) => setFilter("sort", event.currentTarget.value)}>
            {Object.entries(sorts).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
      </form>
      {requests.isPending ? <Loading what="requests" /> : null}
      {requests.isError ? <ErrorMessage error={requests.error} what="Requests" /> : null}
      {vote.isError ? <ErrorMessage error={vote.error} what="Vote" /> : null}
      {requests.data && requests.data.items.length === 0 ? <p>No requests match.</p> : null}
      <ul className="request-list" aria-label="Feature requests">
        {requests.data?.items.map((request) => {
          const mine = voted.has(request.id)
          return (
            <li key={request.id} className="request-row">
              <button
                type="button"
                className={mine ? "vote voted" : "vote"}
                aria-pressed={mine}
                disabled={!permissions.data?.vote || vote.isPending}
                onClick={() => vote.mutate({ id: request.id, on: !mine })}
                aria-label={`${mine ? "Remove vote from" : "Vote for"} ${request.shortId}, ${String(request.voteCount)} votes`}
              >
                ▲ {String(request.voteCount)}
              </button>
              <div>
                <Link to={`requests/${request.id}`}>
                  <span className="muted">{request.shortId}</span> {request.title}
                </Link>
                <p className="muted small">
                  {request.status?.name ?? "No status"}
                  {request.category ? ` · ${request.category.name}` : ""}
                  {request.productArea ? ` · ${request.productArea.name}` : ""} · {String(request.commentCount)} comments
                  {request.moderationState !== "approved" ? ` · ${request.moderationState}` : ""}
                </p>
              </div>
            </li>
          )
        })}
      </ul>
    </div>
  )
}
