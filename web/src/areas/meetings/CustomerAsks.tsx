/**
 * The call's customer asks: what an outside attendee asked for, each offered
 * as a proposal (a vote on their behalf for a similar request, or a new
 * request). Nothing reaches the board until a member confirms here; the
 * moment opens the transcript where it was said, and a confirmed ask links
 * to its request.
 */
import { Link } from "react-router"
import { clock } from "../common/time.ts"
import { ProposalList, resultString, useProposals } from "../lens/ProposalList.tsx"

export const CustomerAsks = ({
  workspaceId,
  callId,
  onSeek
}: {
  readonly workspaceId: string
  readonly callId: number
  readonly onSeek: (ms: number) => void
}) => {
  const proposals = useProposals(workspaceId)
  const asks = proposals.data?.items.filter((proposal) => proposal.call?.callId === callId) ?? []
  if (asks.length === 0) return null
  return (
    <section aria-labelledby="customer-asks-heading" className="panel">
      <h3 id="customer-asks-heading">Customer asks</h3>
      <ProposalList
        workspaceId={workspaceId}
        proposals={asks}
        lead={(proposal) => (
          <>
            <button
              type="button"
              className="link"
              onClick={() => onSeek(Number(proposal.call!.startMs))}
              aria-label={`Play from ${clock(Number(proposal.call!.startMs))}`}
            >
              {clock(Number(proposal.call!.startMs))}
            </button>{" "}
            <q>{proposal.call!.said}</q>{" "}
          </>
        )}
        written={(proposal) => {
          const requestId = resultString(proposal, ["request", "id"])
          return requestId === undefined ? null : (
            <Link to={`/w/${workspaceId}/feedback/${proposal.call!.boardId}/requests/${requestId}`}>open request</Link>
          )
        }}
      />
    </section>
  )
}
