/**
 * AI accounting: every Lens run (local engine or model call) is metered per
 * workspace and user, and deducts credits from the workspace's balance (the
 * `LensAccount` actor writes both). A workspace starts with
 * `LENS_INITIAL_CREDITS` (default 1000); at zero Lens answers 402 until an
 * admin adds credits. Here: prices, and reads of the usage and ledger logs.
 */
import { Effect, Schema } from "effect"
import { isoTimestampSql, query } from "../../persistence/Sql.ts"
import { Id, Timestamp } from "../Fields.ts"

export const initialCredits = (): number => {
  const configured = Number(process.env.LENS_INITIAL_CREDITS)
  return Number.isInteger(configured) && configured >= 0 ? configured : 1000
}

/** The credits one run costs: one per local run; a model call costs one per 1000 tokens (at least one). */
export const creditsFor = (engine: "local" | "model", tokens: number): number =>
  engine === "local" ? 1 : Math.max(1, Math.ceil(tokens / 1000))

/** A run's credits: speech-to-text costs one per started minute of audio sent (its `durationMs`), the rest as `creditsFor`. */
export const creditsOfRun = (run: {
  readonly engine: "local" | "model"
  readonly purpose: string
  readonly promptTokens: number
  readonly completionTokens: number
  readonly durationMs: number
}): number =>
  run.purpose === "transcription"
    ? Math.max(1, Math.ceil(run.durationMs / 60_000))
    : creditsFor(run.engine, run.promptTokens + run.completionTokens)

export const LedgerEntry = Schema.Struct({
  id: Id,
  delta: Schema.Number,
  reason: Schema.String,
  userId: Schema.NullOr(Schema.String),
  createdAt: Timestamp
}).annotate({ identifier: "LensLedgerEntry" })

export const ledgerOf = (workspaceId: string, limit: number, offset: number) =>
  query<typeof LedgerEntry.Type>(
    `SELECT id, delta, reason, user_id AS "userId", ${isoTimestampSql("created_at")} AS "createdAt"
       FROM lens_credit_ledger WHERE workspace_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
    [workspaceId, limit, offset]
  )

/** Rough token count of text (about four characters a token), for metering the local engine's work. */
export const tokensOf = (text: string): number => Math.ceil(text.length / 4)

export const UsageRecord = Schema.Struct({
  id: Id,
  workspaceId: Id,
  userId: Schema.String,
  engine: Schema.Literals(["local", "model"]),
  purpose: Schema.String,
  model: Schema.NullOr(Schema.String),
  promptTokens: Schema.Number,
  completionTokens: Schema.Number,
  credits: Schema.Number,
  durationMs: Schema.Number,
  createdAt: Timestamp
}).annotate({ identifier: "TokenUsage" })
export type UsageRecord = typeof UsageRecord.Type

export interface UsageFilter {
  readonly workspaceId: string
  readonly userId?: string
  readonly engine?: "local" | "model"
  readonly from?: string
  readonly to?: string
}

const USAGE_COLUMNS = `id, workspace_id AS "workspaceId", user_id AS "userId", engine, purpose, model, prompt_tokens AS "promptTokens",
  completion_tokens AS "completionTokens", credits, duration_ms AS "durationMs", ${isoTimestampSql("created_at")} AS "createdAt"`

const usageWhere = (filter: UsageFilter, params: Array<unknown>) => {
  const add = (value: unknown) => {
    params.push(value)
    return `$${params.length}`
  }
  const conditions = [`workspace_id = ${add(filter.workspaceId)}`]
  if (filter.userId) conditions.push(`user_id = ${add(filter.userId)}`)
  if (filter.engine) conditions.push(`engine = ${add(filter.engine)}`)
  if (filter.from) conditions.push(`created_at >= ${add(filter.from)}::timestamptz`)
  if (filter.to) conditions.push(`created_at < ${add(filter.to)}::timestamptz`)
  return conditions.join(" AND ")
}

export const usageRecords = (filter: UsageFilter, limit: number, offset: number) => {
  const params: Array<unknown> = []
  const where = usageWhere(filter, params)
  return query<UsageRecord>(
    `SELECT ${USAGE_COLUMNS} FROM lens_usage WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`,
    params
  )
}

export const usageRecord = (workspaceId: string, usageId: string) =>
  Effect.map(
    query<UsageRecord>(`SELECT ${USAGE_COLUMNS} FROM lens_usage WHERE workspace_id = $1 AND id = $2`, [workspaceId, usageId]),
    (rows) => rows[0]
  )

export const UsageTotals = Schema.Struct({
  key: Schema.String,
  runs: Schema.Number,
  promptTokens: Schema.Number,
  completionTokens: Schema.Number,
  credits: Schema.Number
}).annotate({ identifier: "TokenUsageTotals" })
export type UsageTotals = typeof UsageTotals.Type

/** Ways usage is grouped, as SQL expressions over `lens_usage`. */
export const usageGroupings = {
  user: "user_id",
  day: "to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')",
  purpose: "purpose",
  engine: "engine",
  model: "coalesce(model, 'local')",
  all: "'all'"
} as const

export const usageTotals = (filter: UsageFilter, grouping: keyof typeof usageGroupings) => {
  const params: Array<unknown> = []
  const where = usageWhere(filter, params)
  const key = usageGroupings[grouping]
  return query<UsageTotals>(
    `SELECT ${key} AS key, count(*)::int AS runs, coalesce(sum(prompt_tokens), 0)::int AS "promptTokens",
            coalesce(sum(completion_tokens), 0)::int AS "completionTokens", coalesce(sum(credits), 0)::int AS credits
       FROM lens_usage WHERE ${where} GROUP BY 1 ORDER BY 1`,
    params
  )
}
