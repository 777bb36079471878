/**
 * Lens proposals: a write the agent loop wants to make, stored until its
 * user confirms (applied then, with their own credentials) or rejects it.
 */
import { Effect, Schema } from "effect"
import { isoTimestampSql, query } from "../../persistence/Sql.ts"
import { reject } from "../../runtime/Rejection.ts"
import { Id, Timestamp } from "../Fields.ts"
import type { ProposedWrite } from "./Engine.ts"

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

const COLUMNS = `id, workspace_id AS "workspaceId", user_id AS "userId", answer_id AS "answerId", operation_id AS "operationId", title, input, status, result,
  ${isoTimestampSql("created_at")} AS "createdAt", CASE WHEN decided_at IS NULL THEN NULL ELSE ${isoTimestampSql("decided_at")} END AS "decidedAt"`

type Row = Proposal & { userId: string }
const present = ({ userId: _u, ...proposal }: Row): Proposal => proposal

export const storeProposals = (workspaceId: string, userId: string, answerId: string, proposals: ReadonlyArray<ProposedWrite>) =>
  Effect.forEach(proposals, (proposal) =>
    Effect.gen(function* () {
      const id = crypto.randomUUID()
      yield* query(
        "INSERT INTO lens_proposals (id, workspace_id, user_id, answer_id, operation_id, title, input) VALUES ($1, $2, $3, $4, $5, $6, $7)",
        [id, workspaceId, userId, answerId, proposal.operationId, proposal.title, proposal.input]
      )
      return { id, title: proposal.title, status: "proposed" as const }
    })
  )

export const proposalsOf = (workspaceId: string, userId: string, status: string | undefined) =>
  Effect.map(
    query<Row>(
      `SELECT ${COLUMNS} FROM lens_proposals WHERE workspace_id = $1 AND user_id = $2 ${status ? "AND status = $3" : ""} ORDER BY created_at DESC, id LIMIT 200`,
      status ? [workspaceId, userId, status] : [workspaceId, userId]
    ),
    (rows) => rows.map(present)
  )

/** The caller's own proposal (another user's answers 404, as if it did not exist). */
export const ownProposal = (proposalId: string, userId: string) =>
  Effect.flatMap(query<Row>(`SELECT ${COLUMNS} FROM lens_proposals WHERE id = $1`, [proposalId]), (rows) =>
    rows[0] && rows[0].userId === userId ? Effect.succeed(present(rows[0])) : Effect.fail(reject("not_found", "No such Lens proposal"))
  )

/** Marks the proposal decided, once: a second decision is a conflict. */
export const decide = (proposalId: string, status: "applied" | "rejected" | "failed", result: unknown) =>
  Effect.flatMap(
    query<{ id: string }>(
      "UPDATE lens_proposals SET status = $2, result = $3, decided_at = now() WHERE id = $1 AND status = 'proposed' RETURNING id",
      [proposalId, status, result ?? null]
    ),
    (rows) => (rows.length === 1 ? Effect.void : Effect.fail(reject("conflict", "This proposal was already decided")))
  )
