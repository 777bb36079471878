/**
 * Form views: a form on a list whose answers become a task. The form picks
 * which task fields (and custom fields of the list) it asks for, with labels
 * and which are required; an optional public link (a random token) lets
 * anyone submit, limited per minute. The `PmForms` actor (one per workspace)
 * is the single writer of its forms and their submission records; the task
 * itself is created by the list's actor (the normal write path).
 */
import { randomBytes } from "node:crypto"
import { Effect, Schema } from "effect"
import { Id, Name, Timestamp } from "../Fields.ts"
import { isoTimestampSql, query } from "../../persistence/Sql.ts"
import { reject } from "../../runtime/Rejection.ts"
import { change } from "../pm/Changes.ts"
import { command, workActor } from "../pm/WorkActor.ts"

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
    rows[0] ? Effect.succeed(rows[0]) : Effect.fail(reject("not_found", "No such form"))
  )

export const formOf = (formId: string) => oneForm("id", formId)
export const publicFormOf = (token: string) => oneForm("public_token", token)

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
const FormRef = Schema.Struct({ formId: Id })

export const formCommands = {
  create: command(Schema.Struct({ listId: Id, spaceId: Id, form: NewForm }), Form, (input, by, workspaceId) =>
    Effect.gen(function* () {
      const id = crypto.randomUUID()
      const { form } = input
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

  update: command(Schema.Struct({ ...FormRef.fields, spaceId: Id, patch: FormPatch }), Form, (input, by, workspaceId) =>
    Effect.gen(function* () {
      const before = yield* formOf(input.formId)
      if (before.workspaceId !== workspaceId) return yield* reject("not_found", "No such form")
      const { patch } = input
      const sets: Array<string> = []
      const params: Array<unknown> = [input.formId]
      if (patch.name !== undefined) sets.push(`name = $${params.push(patch.name)}`)
      if (patch.description !== undefined) sets.push(`description = $${params.push(patch.description)}`)
      if (patch.fields !== undefined) sets.push(`fields = $${params.push(patch.fields)}`)
      if (patch.rateLimitPerMinute !== undefined) sets.push(`rate_limit_per_minute = $${params.push(patch.rateLimitPerMinute)}`)
      if (patch.public === false) sets.push("public_token = NULL")
      if (patch.public === true && !before.public) sets.push(`public_token = $${params.push(newToken())}`)
      if (sets.length > 0) yield* query(`UPDATE pm_forms SET ${sets.join(", ")}, updated_at = now() WHERE id = $1`, params)
      const fields = Object.keys(patch)
      return {
        result: yield* formOf(input.formId),
        changes: fields.length ? [change({ ...where(before), spaceId: input.spaceId }, "form.updated", before.id, { fields }, by)] : []
      }
    })
  ),

  delete: command(Schema.Struct({ ...FormRef.fields, spaceId: Id }), Schema.Void, (input, by, workspaceId) =>
    Effect.gen(function* () {
      const form = yield* formOf(input.formId)
      if (form.workspaceId !== workspaceId) return yield* reject("not_found", "No such form")
      yield* query(`DELETE FROM pm_forms WHERE id = $1`, [input.formId])
      return { result: undefined, changes: [change({ ...where(form), spaceId: input.spaceId }, "form.deleted", form.id, {}, by)] }
    })
  ),

  /** Records a submission whose task the list's actor created. */
  recordSubmission: command(
    Schema.Struct({
      ...FormRef.fields,
      taskId: Id,
      source: Schema.Literals(["member", "public"]),
      submittedBy: Schema.NullOr(Id),
      answers: Schema.Record(Schema.String, Schema.Unknown)
    }),
    Schema.Struct({ submissionId: Id }),
    (input, _by, workspaceId) =>
      Effect.gen(function* () {
        const form = yield* formOf(input.formId)
        if (form.workspaceId !== workspaceId) return yield* reject("not_found", "No such form")
        const id = crypto.randomUUID()
        yield* query(
          `INSERT INTO pm_form_submissions (id, form_id, task_id, submitted_by, source, answers) VALUES ($1, $2, $3, $4, $5, $6)`,
          [id, input.formId, input.taskId, input.submittedBy, input.source, input.answers]
        )
        yield* query(`UPDATE pm_forms SET submission_count = submission_count + 1 WHERE id = $1`, [input.formId])
        return { result: { submissionId: id }, changes: [] }
      })
  )
}

export const PmForms = workActor("pmForms", formCommands)
