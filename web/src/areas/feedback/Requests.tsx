/**
 * A board's feature requests for the team and members: filter by status,
 * category and product area, sort, vote and unvote, post a new one.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { useParams } from "react-router"
import { client } from "../../api/client.ts"
import { NewItemPanel } from "./NewItemPanel.tsx"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"
import { unwrap } from "../common/result.ts"
import { boardKey, useCategories, usePermissions, useProductAreas, useStatuses } from "./queries.ts"
import { RequestFilters, RequestRow, useRequestFilters, VoteToggle } from "./RequestList.tsx"
import { docOf } from "./RichText.tsx"

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
    <NewItemPanel
      summary="New request"
      submitLabel="Post request"
      create={create}
      after={create.data ? <p role="status">Posted {create.data.shortId}.</p> : null}
    >
      <label>
        Title <input value={title} onChange={(event) => setTitle(event.currentTarget.value)} required maxLength={200} />
      </label>
      <label>
        Details <textarea rows={4} value={details} onChange={(event) => setDetails(event.currentTarget.value)} />
      </label>
    </NewItemPanel>
  )
}

export const Requests = () => {
  const boardId = useParams().boardId!
  const queryClient = useQueryClient()
  const { statusType, category: categoryId, area: productAreaId, sort } = useRequestFilters()
  const permissions = usePermissions(boardId)
  const statuses = useStatuses(boardId)
  const categories = useCategories(boardId)
  const areas = useProductAreas(boardId)
  const query = {
    sort,
    ...(statusType ? { statusType } : {}),
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
  const byId = (option: { readonly id: string; readonly name: string }) => ({ value: option.id, label: option.name })
  return (
    <div>
      {permissions.data?.post ? <NewRequest boardId={boardId} /> : null}
      <RequestFilters
        statusTypes={(statuses.data?.items ?? []).map((status) => status.type)}
        categories={categories.data?.items.map(byId) ?? []}
        areas={areas.data?.items.map(byId) ?? []}
      />
      {requests.isPending ? <Loading what="requests" /> : null}
      {requests.isError ? <ErrorMessage error={requests.error} what="Requests" /> : null}
      {vote.isError ? <ErrorMessage error={vote.error} what="Vote" /> : null}
      {requests.data && requests.data.items.length === 0 ? <p>No requests match.</p> : null}
      <ul className="request-list" aria-label="Feature requests">
        {requests.data?.items.map((request) => {
          const mine = voted.has(request.id)
          return (
            <RequestRow
              key={request.id}
              request={request}
              to={`requests/${request.id}`}
              noStatus="No status"
              note={request.moderationState !== "approved" ? request.moderationState : undefined}
              vote={
                <VoteToggle
                  shortId={request.shortId}
                  count={request.voteCount}
                  voted={mine}
                  disabled={!permissions.data?.vote || vote.isPending}
                  onToggle={() => vote.mutate({ id: request.id, on: !mine })}
                />
              }
            />
          )
        })}
      </ul>
    </div>
  )
}
