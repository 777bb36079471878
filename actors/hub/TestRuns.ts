/** The connection tests a workspace ran (hub "Test Resource"): what was called, and what happened. */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { query as sqlQuery } from "../../persistence/Sql.ts"
import { reject } from "../../runtime/Rejection.ts"
import { Id, Timestamp } from "../Fields.ts"

export const TestKind = Schema.Literals(["webhook", "integration", "bot_provider", "llm_provider", "email"])
export type TestKind = typeof TestKind.Type

export const TestRun = Schema.Struct({
  id: Id,
  workspaceId: Id,
  kind: TestKind,
  target: Schema.String.annotate({ description: "What was called (a URL, or the mail recipient); never a secret" }),
  ok: Schema.Boolean,
  status: Schema.NullOr(Schema.Number).annotate({ description: "The endpoint's HTTP status; null when none came back" }),
  latencyMs: Schema.Number,
  error: Schema.NullOr(Schema.String),
  detail: Schema.Record(Schema.String, Schema.Unknown),
  createdBy: Id,
  createdAt: Timestamp
}).annotate({ identifier: "ConnectionTestRun", description: "One connection test and its outcome." })
export type TestRun = typeof TestRun.Type

const query = <R extends object>(text: string, params: ReadonlyArray<unknown>) => Effect.orDie(sqlQuery<R>(text, params))

const columns = `id, workspace_id AS "workspaceId", kind, target, ok, http_status AS status, latency_ms AS "latencyMs", error, detail,
  created_by AS "createdBy", created_at AS "createdAt"`

export const recordTestRun = (run: Omit<TestRun, "id" | "createdAt">) =>
  Effect.map(
    query<TestRun>(
      `INSERT INTO hub_test_runs (id, workspace_id, kind, target, ok, http_status, latency_ms, error, detail, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${columns}`,
      [randomUUID(), run.workspaceId, run.kind, run.target, run.ok, run.status, run.latencyMs, run.error, run.detail, run.createdBy]
    ),
    (rows) => rows[0]!
  )

export const testRunsOf = (workspaceId: string, options: { readonly kind?: TestKind; readonly limit: number }) =>
  query<TestRun>(
    `SELECT ${columns} FROM hub_test_runs WHERE workspace_id = $1 AND ($2::text IS NULL OR kind = $2) ORDER BY created_at DESC, id LIMIT $3`,
    [workspaceId, options.kind ?? null, options.limit]
  )

export const testRun = (workspaceId: string, runId: string) =>
  Effect.flatMap(
    query<TestRun>(`SELECT ${columns} FROM hub_test_runs WHERE workspace_id = $1 AND id = $2`, [workspaceId, runId]),
    (rows) => (rows[0] === undefined ? Effect.fail(reject("not_found", "No such test run")) : Effect.succeed(rows[0]))
  )

export const clearTestRuns = (workspaceId: string) =>
  Effect.map(query<{ id: string }>("DELETE FROM hub_test_runs WHERE workspace_id = $1 RETURNING id", [workspaceId]), (rows) => rows.length)
