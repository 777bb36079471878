/** The team's moderation queue: posts and comments waiting, with spam markers; approve, decline or mark spam. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useParams } from "react-router"
import { client } from "../../api/client.ts"
import { announce } from "../../ui/announce.tsx"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"
import { unwrap } from "../common/result.ts"
import { when } from "../common/time.ts"
import { boardKey } from "./queries.ts"

const kindNames = { featureRequest: "Request", comment: "Comment", bugReport: "Bug report", bugComment: "Bug comment" } as const

export const Moderation = () => {
  const boardId = useParams().boardId!
  const queryClient = useQueryClient()
  const queue = useQuery({
    queryKey: [...boardKey(boardId), "moderation"],
    queryFn: () => unwrap(client.GET("/feedback/v1/boards/{boardId}/moderation/queue", { params: { path: { boardId } } }))
  })
  const act = useMutation({
    mutationFn: ({ itemId, action }: { itemId: string; action: "approve" | "decline" | "spam" }) => {
      const params = { path: { boardId, itemId } }
      return unwrap(
        action === "approve"
          ? client.POST("/feedback/v1/boards/{boardId}/moderation/items/{itemId}/approve", { params, body: {} })
          : action === "decline"
            ? client.POST("/feedback/v1/boards/{boardId}/moderation/items/{itemId}/decline", { params, body: {} })
            : client.POST("/feedback/v1/boards/{boardId}/moderation/items/{itemId}/spam", { params, body: { spam: true } })
      )
    },
    onSuccess: (entry) => {
      announce(`Done: ${entry.action}`)
      void queryClient.invalidateQueries({ queryKey: boardKey(boardId) })
    }
  })
  return (
    <section aria-labelledby="moderation-heading">
      <h2 id="moderation-heading">Moderation queue</h2>
      {queue.isPending ? <Loading what="the queue" /> : null}
      {queue.isError ? <ErrorMessage error={queue.error} what="Moderation queue" /> : null}
      {act.isError ? <ErrorMessage error={act.error} /> : null}
      {queue.data && queue.data.items.length === 0 ? <p>Nothing is waiting.</p> : null}
      <ul className="card-list">
        {queue.data?.items.map((item) => (
          <li key={item.id} className="card">
            <h3 className="card-title">
              {kindNames[item.kind]} {item.shortId ?? ""}: {item.title}
            </h3>
            <p className="muted small">
              {item.authorName ?? "Anonymous"} · {when(item.createdAt)}
              {item.spam ? ` · likely spam (${item.spamReasons.join(", ")})` : ""}
            </p>
            <p>{item.excerpt}</p>
            <div className="row">
              <button type="button" onClick={() => act.mutate({ itemId: item.id, action: "approve" })} aria-label={`Approve ${item.title}`}>
                Approve
              </button>
              <button type="button" onClick={() => act.mutate({ itemId: item.id, action: "decline" })} aria-label={`Decline ${item.title}`}>
                Decline
              </button>
              <button
                type="button"
                className="danger"
                onClick={() => act.mutate({ itemId: item.id, action: "spam" })}
                aria-label={`Mark ${item.title} as spam`}
              >
                Spam
              </button>
            </div>
          </li>
        ))}
      </ul>
    </section>
  )
}
