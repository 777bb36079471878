/**
 * Lens experiments (kind "lensExperiments", one actor per workspace): A/B
 * tests of the engine's settings. The actor holds the workspace's
 * experiments in memory (rebuilt from the rows) and assigns variants from
 * there; at most one runs at a time, which it keeps by serialising changes.
 * An asker is assigned a variant by a hash of their id, so they keep it;
 * results count the feedback on each variant's answers (read from the turns
 * that recorded the variant).
 */
import { createHash } from "node:crypto"
import { Effect, Schema } from "effect"
import { isoTimestampSql, query, Sql } from "../../persistence/Sql.ts"
import { Actor, type ActorContext } from "../../runtime/Actor.ts"
import { clientIn } from "../../runtime/ActorSystem.ts"
import { Id, now, Timestamp } from "../Fields.ts"
import { DuplicateVariants, ExperimentRunning, LensExperimentNotFound } from "./LensErrors.ts"

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

/** Newest first, as every list shows them. */
const loadExperiments = (workspaceId: string) =>
  query<Experiment>(`SELECT ${COLUMNS} FROM lens_experiments WHERE workspace_id = $1 ORDER BY created_at DESC, id`, [workspaceId])

export const VariantResult = Schema.Struct({
  variant: Schema.String,
  answers: Schema.Number,
  up: Schema.Number,
  down: Schema.Number,
  approval: Schema.NullOr(Schema.Number).annotate({ description: "up / (up + down); null without feedback" })
}).annotate({ identifier: "LensVariantResult" })

const Results = Schema.Struct({ experiment: Experiment, variants: Schema.Array(VariantResult) })

const AssignedVariant = Schema.Struct({ name: Schema.String, settings: VariantSettings })

type Ctx = ActorContext<ReadonlyArray<Experiment>>

const tagOf = (experimentId: string, variant: string) => `${experimentId}:${variant}`

const running = (ctx: Ctx) => ctx.state.find((e) => e.status === "running")

const experimentIn = (ctx: Ctx, experimentId: string) => {
  const found = ctx.state.find((e) => e.id === experimentId)
  return found ? Effect.succeed(found) : Effect.fail(new LensExperimentNotFound())
}

const anotherRunning = () => new ExperimentRunning()

const results = (experiment: Experiment) =>
  Effect.map(
    query<{ variant: string; answers: number; up: number; down: number }>(
      `SELECT u.variant, count(DISTINCT u.id)::int AS answers,
              count(f.answer_id) FILTER (WHERE f.rating = 'up')::int AS up,
              count(f.answer_id) FILTER (WHERE f.rating = 'down')::int AS down
         FROM lens_turns u LEFT JOIN lens_feedback f ON f.answer_id = u.id
        WHERE u.variant LIKE $1 GROUP BY u.variant`,
      [`${experiment.id}:%`]
    ),
    (rows) => ({
      experiment,
      variants: experiment.variants.map((v) => {
        const row = rows.find((r) => r.variant === tagOf(experiment.id, v.name))
        const up = row?.up ?? 0
        const down = row?.down ?? 0
        return { variant: v.name, answers: row?.answers ?? 0, up, down, approval: up + down === 0 ? null : up / (up + down) }
      })
    })
  )

const ExperimentRef = { experimentId: Id }

export const LensExperiments = Actor<ReadonlyArray<Experiment>>()({
  kind: "lensExperiments",
  state: Schema.Array(Experiment),
  initial: () => [],
  rebuild: (workspaceId) => loadExperiments(workspaceId),
  readOnly: ["list", "variantFor", "results"],
  messages: {
    list: { payload: Schema.Struct({}), success: Schema.Array(Experiment), error: Schema.Never },
    create: {
      payload: Schema.Struct({ by: Schema.String, name: Schema.String, variants: Schema.Array(Variant) }),
      success: Experiment,
      error: Schema.Union([DuplicateVariants, ExperimentRunning])
    },
    setStatus: {
      payload: Schema.Struct({ ...ExperimentRef, status: ExperimentStatus }),
      success: Experiment,
      error: Schema.Union([LensExperimentNotFound, ExperimentRunning])
    },
    delete: { payload: Schema.Struct(ExperimentRef), success: Schema.Void, error: LensExperimentNotFound },
    /** The variant of the running experiment `userId` is assigned to, if any. */
    variantFor: { payload: Schema.Struct({ userId: Schema.String }), success: Schema.NullOr(AssignedVariant), error: Schema.Never },
    results: { payload: Schema.Struct(ExperimentRef), success: Results, error: LensExperimentNotFound }
  },
  handlers: {
    list: (_, ctx) => Effect.succeed(ctx.state),
    create: ({ by, name, variants }, ctx) =>
      Effect.gen(function* () {
        if (new Set(variants.map((v) => v.name)).size !== variants.length) {
          return yield* new DuplicateVariants()
        }
        if (running(ctx) !== undefined) return yield* anotherRunning()
        const at = now()
        const experiment: Experiment = {
          id: crypto.randomUUID(),
          workspaceId: ctx.address.id,
          name,
          status: "running",
          variants,
          createdAt: at,
          updatedAt: at
        }
        yield* Effect.orDie(
          Sql.use((sql) =>
            sql.query(
              "INSERT INTO lens_experiments (id, workspace_id, name, variants, created_by, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6)",
              [experiment.id, experiment.workspaceId, name, variants, by, at]
            )
          )
        )
        ctx.setState([experiment, ...ctx.state])
        return experiment
      }),
    setStatus: ({ experimentId, status }, ctx) =>
      Effect.gen(function* () {
        const experiment = yield* experimentIn(ctx, experimentId)
        if (status === "running" && experiment.status !== "running" && running(ctx) !== undefined) return yield* anotherRunning()
        const next: Experiment = { ...experiment, status, updatedAt: now() }
        yield* Effect.orDie(
          Sql.use((sql) =>
            sql.query("UPDATE lens_experiments SET status = $2, updated_at = $3 WHERE id = $1", [experimentId, status, next.updatedAt])
          )
        )
        ctx.setState(ctx.state.map((e) => (e.id === experimentId ? next : e)))
        return next
      }),
    delete: ({ experimentId }, ctx) =>
      Effect.gen(function* () {
        yield* experimentIn(ctx, experimentId)
        yield* Effect.orDie(Sql.use((sql) => sql.query("DELETE FROM lens_experiments WHERE id = $1", [experimentId])))
        ctx.setState(ctx.state.filter((e) => e.id !== experimentId))
      }),
    variantFor: ({ userId }, ctx) => {
      const experiment = running(ctx)
      if (experiment === undefined || experiment.variants.length === 0) return Effect.succeed(null)
      const bucket = createHash("sha256").update(`${experiment.id}:${userId}`).digest().readUInt32BE(0) % experiment.variants.length
      const variant = experiment.variants[bucket]!
      return Effect.succeed({ name: tagOf(experiment.id, variant.name), settings: variant.settings })
    },
    results: ({ experimentId }, ctx) => Effect.flatMap(experimentIn(ctx, experimentId), (experiment) => Effect.orDie(results(experiment)))
  }
})

/** Asks the workspace's experiments actor. */
export const experiments = clientIn(LensExperiments)
