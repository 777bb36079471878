/**
 * Lens proposals: a write the agent loop wants to make, kept until its user
 * confirms (applied then, with their own credentials) or rejects it. They
 * belong to the thread whose answer proposed them (the `LensThread` actor
 * stores them with that turn and decides them); the workspace-wide list of
 * one user's proposals is read here. A processed call's customer asks are
 * proposals too (a vote on behalf of the customer, or a new feature request):
 * they belong to the call, not to a thread (`actors/hub/CallProposals.ts`),
 * carry the transcript moment in `call`, and any workspace member may decide
 * them.
 */
import { Schema } from "effect"
import { isoTimestampSql, query } from "../../persistence/Sql.ts"
import { Id, Timestamp } from "../Fields.ts"

export const ProposalStatus = Schema.Literals(["proposed", "applied", "rejected", "failed"])

/** Where a call proposal's ask was said: the call, the moment, who said it and what. */
export const CallMoment = Schema.Struct({
  callId: Schema.Number,
  recordingId: Schema.Number,
  callName: Schema.String,
  startMs: Schema.Number,
  endMs: Schema.Number,
  speakerEmail: Schema.String,
  said: Schema.String,
  boardId: Id,
  /** The similar request the vote goes to; null: the proposal creates one. */
  requestId: Schema.NullOr(Id)
}).annotate({ identifier: "LensCallMoment" })
export type CallMoment = typeof CallMoment.Type

export const Proposal = Schema.Struct({
  id: Id,
  workspaceId: Id,
  answerId: Schema.NullOr(Id).annotate({ description: "The Lens answer that proposed it; null for a call's customer ask" }),
  call: Schema.optionalKey(CallMoment.annotate({ description: "A call's customer ask: where in the transcript it was said" })),
  operationId: Schema.String,
  title: Schema.String,
  input: Schema.Record(Schema.String, Schema.Unknown),
  status: ProposalStatus,
  result: Schema.NullOr(Schema.Unknown),
  createdAt: Timestamp,
  decidedAt: Schema.NullOr(Timestamp)
}).annotate({ identifier: "LensProposal" })
export type Proposal = typeof Proposal.Type

/** A task the agent loop proposes for an action item without one (the list is named on confirmation). */
export const TaskWrite = Schema.Struct({
  operationId: Schema.Literal("createTaskLite"),
  title: Schema.String,
  input: Schema.Struct({ name: Schema.String, description: Schema.String })
})

/** A customer's ask matching a request: the team member's vote on behalf of the customer, and a note linking the call moment. */
export const VoteWrite = Schema.Struct({
  operationId: Schema.Literal("voteFeatureRequestLite"),
  title: Schema.String,
  input: Schema.Struct({ workspaceId: Id, requestRef: Id, onBehalfOfEmail: Schema.String, note: Schema.String })
})

/** A customer's ask matching no request: a new request (its description links the call moment), voted for by the customer. */
export const RequestWrite = Schema.Struct({
  operationId: Schema.Literal("createFeatureRequestLite"),
  title: Schema.String,
  input: Schema.Struct({
    workspaceId: Id,
    board: Schema.String,
    title: Schema.String,
    description: Schema.String,
    onBehalfOfEmail: Schema.String
  })
})

/** A write proposed: an operation and its input, applied only on confirmation. */
export const ProposedWrite = Schema.Union([TaskWrite, VoteWrite, RequestWrite])
export type ProposedWrite = typeof ProposedWrite.Type

export const PROPOSAL_COLUMNS = `id, workspace_id AS "workspaceId", answer_id AS "answerId", operation_id AS "operationId", title, input, status, result,
  ${isoTimestampSql("created_at")} AS "createdAt", CASE WHEN decided_at IS NULL THEN NULL ELSE ${isoTimestampSql("decided_at")} END AS "decidedAt"`

export const proposalsOf = (workspaceId: string, userId: string, status: string | undefined) =>
  query<Proposal>(
    `SELECT ${PROPOSAL_COLUMNS} FROM lens_proposals WHERE workspace_id = $1 AND user_id = $2 ${status ? "AND status = $3" : ""} ORDER BY created_at DESC, id LIMIT 200`,
    status ? [workspaceId, userId, status] : [workspaceId, userId]
  )

export const decidedProposal = (proposal: Proposal, status: "applied" | "rejected" | "failed", result: unknown, at: string): Proposal => ({
  ...proposal,
  status,
  result: result ?? null,
  decidedAt: at
})
