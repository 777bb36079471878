/**
 * Writes Lens proposes, for a member to confirm or reject: the ones a Lens
 * answer proposed (in the Lens panel) and a call's customer asks (on the call's
 * page) are one list of the workspace, read and decided here, so a decision
 * in one place shows in the other.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import type { ReactNode } from "react"
import { client } from "../../api/client.ts"
import type { components } from "../../api/generated/hub.ts"
import { ErrorMessage } from "../../ui/Status.tsx"
import { unwrap } from "../common/result.ts"

export type LensProposal = components["schemas"]["LensProposal"]

export const proposalsKey = (workspaceId: string) => ["hub", "lens-proposals", workspaceId] as const

/** The workspace's proposals. */
export const useProposals = (workspaceId: string) =>
  useQuery({
    queryKey: proposalsKey(workspaceId),
    queryFn: () => unwrap(client.GET("/hub/v1/workspaces/{workspaceId}/lens/proposals", { params: { path: { workspaceId } } }))
  })

const outcomeNames = { applied: "Done", rejected: "Rejected", failed: "Failed" } as const

/** The string at `path` in an applied proposal's result (what it wrote: `["id"]` of a task, `["request", "id"]`…). */
export const resultString = (proposal: LensProposal, path: ReadonlyArray<string>): string | undefined => {
  const found = path.reduce<unknown>(
    (value, key) => (typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined),
    proposal.result
  )
  return typeof found === "string" ? found : undefined
}

/**
 * The proposals with Confirm and Reject while they wait, their outcome after;
 * `lead` comes before a proposal's title (where it was said), `written` after
 * an applied one's outcome (a link to what it wrote, when it can tell).
 */
export const ProposalList = ({
  workspaceId,
  proposals,
  lead,
  written
}: {
  readonly workspaceId: string
  readonly proposals: ReadonlyArray<LensProposal>
  readonly lead?: (proposal: LensProposal) => ReactNode
  readonly written: (proposal: LensProposal) => ReactNode
}) => {
  const queryClient = useQueryClient()
  const decide = useMutation({
    mutationFn: ({ id, decision }: { id: string; decision: "confirm" | "reject" }) =>
      unwrap(client.POST("/hub/v1/lens/proposals/{proposalId}/decision", { params: { path: { proposalId: id } }, body: { decision } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: proposalsKey(workspaceId) })
  })
  return (
    <>
      <ul>
        {proposals.map((proposal) => (
          <li key={proposal.id}>
            {lead?.(proposal)}
            <span>{proposal.title}</span>{" "}
            {proposal.status === "proposed" ? (
              <span className="row">
                {(["confirm", "reject"] as const).map((decision) => (
                  <button
                    key={decision}
                    type="button"
                    onClick={() => decide.mutate({ id: proposal.id, decision })}
                    disabled={decide.isPending}
                    aria-label={`${decision === "confirm" ? "Confirm" : "Reject"}: ${proposal.title}`}
                  >
                    {decision === "confirm" ? "Confirm" : "Reject"}
                  </button>
                ))}
              </span>
            ) : (
              <span className={`badge badge-${proposal.status}`}>
                {outcomeNames[proposal.status]}
                {proposal.status === "applied" ? <> {written(proposal)}</> : null}
              </span>
            )}
          </li>
        ))}
      </ul>
      {decide.isError ? <ErrorMessage error={decide.error} /> : null}
    </>
  )
}
