/**
 * The call's customer asks: what an outside attendee asked for, each offered
 * as a proposal (a vote on their behalf for a similar request, or a new
 * request). Nothing reaches the board until a member confirms here; the
 * moment opens the transcript where it was said.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { client } from "../../api/client.ts"
import { unwrap } from "../common/result.ts"
import { clock } from "../common/time.ts"

/** The same list Lens's panel reads (a decision here refreshes it there). */
const proposalsKey = (workspaceId: string) => ["hub", "lens-proposals", workspaceId] as const

export const CustomerAsks = ({
  workspaceId,
  callId,
  onSeek
}: {
  readonly workspaceId: string
  readonly callId: number
  readonly onSeek: (ms: number) => void
}) => {
  const queryClient = useQueryClient()
  const proposals = useQuery({
    queryKey: proposalsKey(workspaceId),
    queryFn: () => unwrap(client.GET("/hub/v1/workspaces/{workspaceId}/lens/proposals", { params: { path: { workspaceId } } }))
  })
  const decide = useMutation({
    mutationFn: ({ id, decision }: { id: string; decision: "confirm" | "reject" }) =>
      unwrap(client.POST("/hub/v1/lens/proposals/{proposalId}/decision", { params: { path: { proposalId: id } }, body: { decision } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: proposalsKey(workspaceId) })
  })
  const asks = proposals.data?.items.filter((proposal) => proposal.call?.callId === callId) ?? []
  if (asks.length === 0) return null
  return (
    <section aria-labelledby="customer-asks-heading" className="panel">
      <h3 id="customer-asks-heading">Customer asks</h3>
      {decide.error ? <p role="alert">{decide.error.message}</p> : null}
      <ul>
        {asks.map((proposal) => (
          <li key={proposal.id}>
            <button type="button" className="link" onClick={() => onSeek(Number(proposal.call!.startMs))}>
              {clock(Number(proposal.call!.startMs))}
            </button>{" "}
            <q>{proposal.call!.said}</q> <span>{proposal.title}</span>{" "}
            {proposal.status === "proposed" ? (
              <span className="row">
                <button
                  type="button"
                  onClick={() => decide.mutate({ id: proposal.id, decision: "confirm" })}
                  disabled={decide.isPending}
                  aria-label={`Confirm: ${proposal.title}`}
                >
                  Confirm
                </button>
                <button
                  type="button"
                  onClick={() => decide.mutate({ id: proposal.id, decision: "reject" })}
                  disabled={decide.isPending}
                  aria-label={`Reject: ${proposal.title}`}
                >
                  Reject
                </button>
              </span>
            ) : (
              <span className={`badge badge-${proposal.status}`}>
                {proposal.status === "applied" ? "Done" : proposal.status === "rejected" ? "Rejected" : "Failed"}
              </span>
            )}
          </li>
        ))}
      </ul>
    </section>
  )
}
