/**
 * Form views: a form on a list whose answers become a task. The form picks
 * which task fields (and custom fields of the list) it asks for, with labels
 * and which are required; an optional public link (a random token) lets
 * anyone submit, limited per minute. The `PmForm` actor (one per form) is
 * the single writer of its form and its submission records and keeps the
 * form in memory (rebuilt from its row on activation; each command hands
 * over the new state), so reading one form is one ask and no SQL; the task
 * itself is created by the list's actor (the normal write path).
 */
import { randomBytes } from "node:crypto"
import { Effect, Schema } from "effect"
import { Id, Name, Timestamp } from "../Fields.ts"
import { isoTimestampSql, query } from "../../persistence/Sql.ts"
import { change } from "../pm/Changes.ts"
import { command, stateRead, workActor } from "../pm/WorkActor.ts"
import { orAbsent } from "../pm/WorkActors.ts"
import { FormNotFound } from "./OpsErrors.ts"

export const FormTarget = Schema.Literals(["name", "description", "priority", "startDate", "dueDate", "tags", "customField"])

export const FormField = Schema.Struct({
  target: FormTarget.annotate({ description: "The task field the answer fills" }),
  fieldId: Schema.optionalKey(Id.annotate({ description: "customField: the list's custom field" })),
  label: Name(200),
  helpText: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(1000))),
  required: Schema.optionalKey(Schema.Boolean)
}).annotate({ identifier: "FormField" })
export type FormField = typeof FormField.Type

/** The key an answer is given under: the target, or the custom field's id. */
export const answerKey = (field: FormField): string => (field.target === "customField" ? field.fieldId! : field.target)

export const Form = Schema.Struct({
  id: Id,
  workspaceId: Id,
  listId: Id,
  name: Schema.String,
  description: Schema.String,
  fields: Schema.Array(FormField),
  public: Schema.Boolean,
  publicToken: Schema.NullOr(Schema.String),
  rateLimitPerMinute: Schema.Number,
  submissionCount: Schema.Number,
  createdBy: Id,
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({ identifier: "FormView" })
export type Form = typeof Form.Type

export const FormFields = Schema.Array(FormField).check(Schema.isMinLength(1), Schema.isMaxLength(50))
export const RateLimit = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 1000 }))

export const NewForm = Schema.Struct({
  name: Name(200),
  description: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(5000))),
  fields: FormFields,
  public: Schema.optionalKey(Schema.Boolean),
  rateLimitPerMinute: Schema.optionalKey(RateLimit)
})

export const FormPatch = Schema.Struct({
  name: Schema.optionalKey(Name(200)),
  description: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(5000))),
  fields: Schema.optionalKey(FormFields),
  public: Schema.optionalKey(
    Schema.Boolean.annotate({ description: "false removes the link; true makes one (a new token when it was off)" })
  ),
  rateLimitPerMinute: Schema.optionalKey(RateLimit)
})

const formColumns = `id, workspace_id AS "workspaceId", list_id AS "listId", name, description, fields, public_token IS NOT NULL AS public,
  public_token AS "publicToken", rate_limit_per_minute AS "rateLimitPerMinute", submission_count AS "submissionCount", created_by AS "createdBy",
  ${isoTimestampSql("created_at")} AS "createdAt", ${isoTimestampSql("updated_at")} AS "updatedAt"`

export const formsOfList = (listId: string) =>
  query<Form>(`SELECT ${formColumns} FROM pm_forms WHERE list_id = $1 ORDER BY created_at, id`, [listId])

const oneForm = (clause: string, value: string) =>
  Effect.flatMap(query<Form>(`SELECT ${formColumns} FROM pm_forms WHERE ${clause} = $1`, [value]), (rows) =>
    rows[0] ? Effect.succeed(rows[0]) : Effect.fail(new FormNotFound())
  )

export const formOf = (formId: string) => oneForm("id", formId)

/** The form a public link opens, if any (its actor has the form itself). */
export const formIdOfToken = (token: string) =>
  Effect.map(query<{ id: string }>(`SELECT id FROM pm_forms WHERE public_token = $1`, [token]), (rows) => rows[0]?.id)

/** Public submissions of the form in the last minute. */
export const recentPublicSubmissions = (formId: string) =>
  Effect.map(
    query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pm_form_submissions WHERE form_id = $1 AND source = 'public' AND created_at > now() - interval '1 minute'`,
      [formId]
    ),
    (rows) => rows[0]?.n ?? 0
  )

const newToken = () => randomBytes(24).toString("base64url")
const where = (form: { workspaceId: string; listId: string }) => ({ workspaceId: form.workspaceId, listId: form.listId })

export const formCommands = {
  /** Creates the form whose id is the actor's. */
  create: command(Schema.Struct({ workspaceId: Id, listId: Id, spaceId: Id, form: NewForm }), Form, FormNotFound, (input, by, id) =>
    Effect.gen(function* () {
      const { form, workspaceId } = input
      yield* query(
        `INSERT INTO pm_forms (id, workspace_id, list_id, name, description, fields, public_token, rate_limit_per_minute, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          id,
          workspaceId,
          input.listId,
          form.name,
          form.description ?? "",
          form.fields,
          form.public ? newToken() : null,
          form.rateLimitPerMinute ?? 10,
          by
        ]
      )
      const created = yield* formOf(id)
      return {
        result: created,
        changes: [change({ workspaceId, spaceId: input.spaceId, listId: input.listId }, "form.created", id, { name: form.name }, by)]
      }
    })
  ),

  update: command(Schema.Struct({ spaceId: Id, patch: FormPatch }), Form, FormNotFound, (input, by, formId) =>
    Effect.gen(function* () {
      const before = yield* formOf(formId)
      const { patch } = input
      const sets: Array<string> = []
      const params: Array<unknown> = [formId]
      if (patch.name !== undefined) sets.push(`name = $${params.push(patch.name)}`)
      if (patch.description !== undefined) sets.push(`description = $${params.push(patch.description)}`)
      if (patch.fields !== undefined) sets.push(`fields = $${params.push(patch.fields)}`)
      if (patch.rateLimitPerMinute !== undefined) sets.push(`rate_limit_per_minute = $${params.push(patch.rateLimitPerMinute)}`)
      if (patch.public === false) sets.push("public_token = NULL")
      if (patch.public === true && !before.public) sets.push(`public_token = $${params.push(newToken())}`)
      if (sets.length > 0) yield* query(`UPDATE pm_forms SET ${sets.join(", ")}, updated_at = now() WHERE id = $1`, params)
      const fields = Object.keys(patch)
      return {
        result: yield* formOf(formId),
        changes: fields.length ? [change({ ...where(before), spaceId: input.spaceId }, "form.updated", before.id, { fields }, by)] : []
      }
    })
  ),

  delete: command(Schema.Struct({ spaceId: Id }), Schema.Void, FormNotFound, (input, by, formId) =>
    Effect.gen(function* () {
      const form = yield* formOf(formId)
      yield* query(`DELETE FROM pm_forms WHERE id = $1`, [formId])
      return { result: undefined, changes: [change({ ...where(form), spaceId: input.spaceId }, "form.deleted", form.id, {}, by)] }
    })
  ),

  /** Records a submission whose task the list's actor created. */
  recordSubmission: command(
    Schema.Struct({
      taskId: Id,
      source: Schema.Literals(["member", "public"]),
      submittedBy: Schema.NullOr(Id),
      answers: Schema.Record(Schema.String, Schema.Unknown)
    }),
    Schema.Struct({ submissionId: Id }),
    FormNotFound,
    (input, _by, formId) =>
      Effect.gen(function* () {
        yield* formOf(formId)
        const id = crypto.randomUUID()
        yield* query(
          `INSERT INTO pm_form_submissions (id, form_id, task_id, submitted_by, source, answers) VALUES ($1, $2, $3, $4, $5, $6)`,
          [id, formId, input.taskId, input.submittedBy, input.source, input.answers]
        )
        yield* query(`UPDATE pm_forms SET submission_count = submission_count + 1 WHERE id = $1`, [formId])
        return { result: { submissionId: id }, changes: [] }
      })
  )
}

const isForm = (value: unknown): value is Form => typeof value === "object" && value !== null && "fields" in value && "listId" in value

export const PmForm = workActor("pmForm", formCommands, {
  state: Schema.NullOr(Form),
  rebuild: (formId) => orAbsent(formOf(formId)),
  reads: {
    get: stateRead(Form, FormNotFound)
  },
  afterCommand: (name, result, state) => {
    if (name === "delete") return null
    if (name === "recordSubmission") return state === null ? undefined : { ...state, submissionCount: state.submissionCount + 1 }
    return isForm(result) ? result : undefined
  }
})
