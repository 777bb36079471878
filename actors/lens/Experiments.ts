/**
 * Lens experiments: A/B tests of the engine's settings in one workspace. At
 * most one runs at a time; an asker is assigned a variant by a hash of their
 * id, so they keep it; results count the feedback on each variant's answers.
 */
import { createHash } from "node:crypto"
import { Effect, Schema } from "effect"
import { isoTimestampSql, query } from "../../persistence/Sql.ts"
import { reject } from "../../runtime/Rejection.ts"
import { Id, Timestamp } from "../Fields.ts"

export const VariantSettings = Schema.Struct({
  minimumCoverage: Schema.optionalKey(
    Schema.Number.check(Schema.isBetween({ minimum: 0.05, maximum: 1 })).annotate({
      description: "Grading threshold: share of the question's words a passage must contain"
    })
  ),
  topK: Schema.optionalKey(
    Schema.Number.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 20 })).annotate({
      description: "Passages ranked before grading"
    })
  )
})

export const VariantName = Schema.String.check(
  Schema.isPattern(/^[a-z0-9_-]{1,32}$/, { expected: "a short lower-case name such as control" })
)

export const Variant = Schema.Struct({ name: VariantName, settings: VariantSettings }).annotate({ identifier: "LensVariant" })
export type Variant = typeof Variant.Type

export const ExperimentStatus = Schema.Literals(["running", "stopped"])

export const Experiment = Schema.Struct({
  id: Id,
  workspaceId: Id,
  name: Schema.String,
  status: ExperimentStatus,
  variants: Schema.Array(Variant),
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({ identifier: "LensExperiment" })
export type Experiment = typeof Experiment.Type

const COLUMNS = `id, workspace_id AS "workspaceId", name, status, variants, ${isoTimestampSql("created_at")} AS "createdAt", ${isoTimestampSql("updated_at")} AS "updatedAt"`

export const experimentsOf = (workspaceId: string) =>
  query<Experiment>(`SELECT ${COLUMNS} FROM lens_experiments WHERE workspace_id = $1 ORDER BY created_at DESC, id`, [workspaceId])

export const experimentIn = (workspaceId: string, experimentId: string) =>
  Effect.flatMap(
    query<Experiment>(`SELECT ${COLUMNS} FROM lens_experiments WHERE workspace_id = $1 AND id = $2`, [workspaceId, experimentId]),
    (rows) => (rows[0] ? Effect.succeed(rows[0]) : Effect.fail(reject("not_found", "No such Lens experiment")))
  )

const running = (workspaceId: string) =>
  Effect.map(
    query<Experiment>(`SELECT ${COLUMNS} FROM lens_experiments WHERE workspace_id = $1 AND status = 'running'`, [workspaceId]),
    (rows) => rows[0]
  )

export const createExperiment = (workspaceId: string, by: string, name: string, variants: ReadonlyArray<Variant>) =>
  Effect.gen(function* () {
    if (new Set(variants.map((v) => v.name)).size !== variants.length) {
      return yield* reject("invalid", "Variant names must differ", [{ path: "body.variants", message: "duplicate variant name" }])
    }
    if ((yield* running(workspaceId)) !== undefined)
      return yield* reject("conflict", "Another Lens experiment is running in this workspace; stop it first")
    const id = crypto.randomUUID()
    yield* query("INSERT INTO lens_experiments (id, workspace_id, name, variants, created_by) VALUES ($1, $2, $3, $4, $5)", [
      id,
      workspaceId,
      name,
      variants,
      by
    ])
    return yield* experimentIn(workspaceId, id)
  })

export const setExperimentStatus = (workspaceId: string, experimentId: string, status: typeof ExperimentStatus.Type) =>
  Effect.gen(function* () {
    const experiment = yield* experimentIn(workspaceId, experimentId)
    if (status === "running" && experiment.status !== "running" && (yield* running(workspaceId)) !== undefined) {
      return yield* reject("conflict", "Another Lens experiment is running in this workspace; stop it first")
    }
    yield* query("UPDATE lens_experiments SET status = $3, updated_at = now() WHERE workspace_id = $1 AND id = $2", [
      workspaceId,
      experimentId,
      status
    ])
    return yield* experimentIn(workspaceId, experimentId)
  })

export const deleteExperiment = (workspaceId: string, experimentId: string) =>
  Effect.flatMap(experimentIn(workspaceId, experimentId), () =>
    query("DELETE FROM lens_experiments WHERE workspace_id = $1 AND id = $2", [workspaceId, experimentId])
  )

const tagOf = (experimentId: string, variant: string) => `${experimentId}:${variant}`

/** The variant of the running experiment `userId` is assigned to, if any. */
export const variantFor = (workspaceId: string, userId: string) =>
  Effect.map(running(workspaceId), (experiment) => {
    if (experiment === undefined || experiment.variants.length === 0) return undefined
    const bucket = createHash("sha256").update(`${experiment.id}:${userId}`).digest().readUInt32BE(0) % experiment.variants.length
    const variant = experiment.variants[bucket]!
    return { name: tagOf(experiment.id, variant.name), settings: variant.settings }
  })

export const VariantResult = Schema.Struct({
  variant: Schema.String,
  answers: Schema.Number,
  up: Schema.Number,
  down: Schema.Number,
  approval: Schema.NullOr(Schema.Number).annotate({ description: "up / (up + down); null without feedback" })
}).annotate({ identifier: "LensVariantResult" })

export const resultsOf = (workspaceId: string, experimentId: string) =>
  Effect.gen(function* () {
    const experiment = yield* experimentIn(workspaceId, experimentId)
    const rows = yield* query<{ variant: string; answers: number; up: number; down: number }>(
      `SELECT u.variant, count(DISTINCT u.id)::int AS answers,
              count(f.answer_id) FILTER (WHERE f.rating = 'up')::int AS up,
              count(f.answer_id) FILTER (WHERE f.rating = 'down')::int AS down
         FROM lens_turns u LEFT JOIN lens_feedback f ON f.answer_id = u.id
        WHERE u.variant LIKE $1 GROUP BY u.variant`,
      [`${experimentId}:%`]
    )
    return {
      experiment,
      variants: experiment.variants.map((v) => {
        const row = rows.find((r) => r.variant === tagOf(experimentId, v.name))
        const up = row?.up ?? 0
        const down = row?.down ?? 0
        return { variant: v.name, answers: row?.answers ?? 0, up, down, approval: up + down === 0 ? null : up / (up + down) }
      })
    }
  })
