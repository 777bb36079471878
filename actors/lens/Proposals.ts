/**
 * Lens proposals: a write the agent loop wants to make, kept until its user
 * confirms (applied then, with their own credentials) or rejects it. They
 * belong to the thread whose answer proposed them (the `LensThread` actor
 * stores them with that turn and decides them); the workspace-wide list of
 * one user's proposals is read here.
 */
import { Schema } from "effect"
import { isoTimestampSql, query } from "../../persistence/Sql.ts"
import { Id, Timestamp } from "../Fields.ts"

export const ProposalStatus = Schema.Literals(["proposed", "applied", "rejected", "failed"])

export const Proposal = Schema.Struct({
  id: Id,
  workspaceId: Id,
  answerId: Id,
  operationId: Schema.String,
  title: Schema.String,
  input: Schema.Record(Schema.String, Schema.Unknown),
  status: ProposalStatus,
  result: Schema.NullOr(Schema.Unknown),
  createdAt: Timestamp,
  decidedAt: Schema.NullOr(Timestamp)
}).annotate({ identifier: "LensProposal" })
export type Proposal = typeof Proposal.Type

/** A write the agent loop proposes: an operation and its input, applied only on confirmation. */
export const ProposedWrite = Schema.Struct({
  operationId: Schema.Literal("createTaskLite"),
  title: Schema.String,
  input: Schema.Struct({ name: Schema.String, description: Schema.String })
})
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
