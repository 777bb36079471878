/**
 * pm tag "Form Views" (8): forms on a list whose submissions create tasks
 * through the list's actor (the normal write path). Members manage and submit
 * them; a form may have a public link (anyone may read and submit it, up to
 * its per-minute limit; a filled honeypot field is accepted and dropped).
 */
import { Effect, Schema } from "effect"
import { Id } from "../../../actors/Fields.ts"
import { read, send } from "../../../actors/pm/WorkActor.ts"
import { PmList } from "../../../actors/pm/WorkActors.ts"
import {
  type Form as FormType,
  Form,
  FormField,
  FormPatch,
  formIdOfToken,
  formsOfList,
  NewForm,
  PmForm,
  recentPublicSubmissions
} from "../../../actors/pmops/Forms.ts"
import { answerKey } from "../../../actors/pmops/Forms.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { refusalOf } from "../../HttpError.ts"
import { type RequestContext, tagGroup } from "../../Operation.ts"
import { onList, orDieSql } from "../WorkAccess.ts"
import { checkFormFields, taskFromAnswers } from "./FormAnswers.ts"
import { formViewsExamples } from "./FormViews.examples.ts"
const ListParams = Schema.Struct({ listId: Id })
const FormParams = Schema.Struct({ formId: Id })
const TokenParams = Schema.Struct({
  token: Schema.String.check(Schema.isPattern(/^[A-Za-z0-9_-]{16,64}$/, { expected: "a form link token" }))
})

const Answers = Schema.Record(Schema.String.check(Schema.isMaxLength(64)), Schema.Unknown).annotate({
  description: "Answers by field key: the target (name, description, priority, startDate, dueDate, tags) or the custom field's id"
})
const Submitted = Schema.Struct({ accepted: Schema.Boolean, taskId: Schema.NullOr(Id) }).annotate({ identifier: "FormSubmission" })

const PublicForm = Schema.Struct({
  id: Id,
  name: Schema.String,
  description: Schema.String,
  fields: Schema.Array(Schema.Struct({ key: Schema.String, ...FormField.fields }))
}).annotate({ identifier: "PublicFormView" })

/** The form and the caller's standing on its list. */
const onForm = (context: RequestContext, id: string, minimum: "viewer" | "member") =>
  Effect.gen(function* () {
    const form = yield* read(PmForm, id, "get", {})
    const caller = yield* onList(context, form.listId, minimum).pipe(
      Effect.mapError((e) => (e._tag === "Rejection" && e.code === "not_found" ? reject("not_found", "No such form") : e))
    )
    return { form, caller }
  })

/** The form a public link opens: its token must still be the form's (the actor's state is the truth). */
const publicForm = (token: string) =>
  Effect.gen(function* () {
    const formId = yield* orDieSql(formIdOfToken(token))
    const form =
      formId === undefined
        ? undefined
        : yield* read(PmForm, formId, "get", {}).pipe(Effect.catchTag("FormNotFound", () => Effect.succeed(undefined)))
    return form !== undefined && form.publicToken === token ? form : yield* reject("not_found", "No such form")
  })

/** Creates the task the answers describe, as `by`, and records the submission. */
const submit = (form: FormType, answers: Readonly<Record<string, unknown>>, by: string, source: "member" | "public") =>
  Effect.gen(function* () {
    const input = yield* taskFromAnswers(form, answers)
    const task = yield* send(PmList, form.listId, "createTask", by, input).pipe(
      // Custom-field values are checked by the write path: name them as answers.
      Effect.mapError((e) => {
        const refusal = refusalOf(e)
        return refusal?.details
          ? reject(
              refusal.code,
              refusal.message.replace("body.customFields.", "body.answers."),
              refusal.details.map((d) => ({ ...d, path: d.path.replace(/^body\.customFields\./, "body.answers.") }))
            )
          : e
      })
    )
    yield* send(PmForm, form.id, "recordSubmission", by, {
      taskId: task.id,
      source,
      submittedBy: source === "member" ? by : null,
      answers: { ...answers }
    })
    return task
  })

const { operation } = tagGroup("pm", "Form Views", formViewsExamples)

export const formViewsOperations = [
  operation({
    operationId: "listForms",
    method: "GET",
    path: "/v1/lists/{listId}/forms",
    summary: "The forms of a list",
    auth: "both",
    scopes: ["tasks:read"],
    params: ListParams,
    responses: { 200: { description: "Forms", schema: Schema.Struct({ items: Schema.Array(Form) }) } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* onList(context, params.listId)
        return { items: yield* orDieSql(formsOfList(params.listId)) }
      })
  }),
  operation({
    operationId: "createForm",
    method: "POST",
    path: "/v1/lists/{listId}/forms",
    summary: "Create a form on a list: the task fields and custom fields it asks for (member)",
    description: "Every form asks for the task name (a required field with target `name`). `public: true` makes a link anyone may submit.",
    auth: "both",
    scopes: ["tasks:write"],
    params: ListParams,
    body: NewForm,
    responses: { 201: { description: "Created", schema: Form } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onList(context, params.listId, "member")
        yield* checkFormFields(body.fields, yield* read(PmList, params.listId, "locate", {}))
        return yield* send(PmForm, crypto.randomUUID(), "create", caller.userId, {
          workspaceId: caller.at.workspaceId,
          listId: params.listId,
          spaceId: caller.at.spaceId,
          form: body
        })
      })
  }),
  operation({
    operationId: "getForm",
    method: "GET",
    path: "/v1/forms/{formId}",
    summary: "One form",
    auth: "both",
    scopes: ["tasks:read"],
    params: FormParams,
    responses: { 200: { description: "Form", schema: Form }, 404: { description: "No such form" } },
    handler: ({ params }, context) => Effect.map(onForm(context, params.formId, "viewer"), ({ form }) => form)
  }),
  operation({
    operationId: "updateForm",
    method: "PATCH",
    path: "/v1/forms/{formId}",
    summary: "Change a form's fields, texts, public link or rate limit (member)",
    auth: "both",
    scopes: ["tasks:write"],
    params: FormParams,
    body: FormPatch,
    responses: { 200: { description: "Updated", schema: Form }, 404: { description: "No such form" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { form, caller } = yield* onForm(context, params.formId, "member")
        if (body.fields) yield* checkFormFields(body.fields, yield* read(PmList, form.listId, "locate", {}))
        return yield* send(PmForm, form.id, "update", caller.userId, { spaceId: caller.at.spaceId, patch: body })
      })
  }),
  operation({
    operationId: "deleteForm",
    method: "DELETE",
    path: "/v1/forms/{formId}",
    summary: "Delete a form (its tasks stay) (member)",
    auth: "both",
    scopes: ["tasks:write"],
    params: FormParams,
    responses: { 204: { description: "Deleted" }, 404: { description: "No such form" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { form, caller } = yield* onForm(context, params.formId, "member")
        yield* send(PmForm, form.id, "delete", caller.userId, { spaceId: caller.at.spaceId })
      })
  }),
  operation({
    operationId: "submitForm",
    method: "POST",
    path: "/v1/forms/{formId}/submissions",
    summary: "Submit a form as a member: its answers become a task in the form's list",
    auth: "both",
    scopes: ["tasks:write"],
    params: FormParams,
    body: Schema.Struct({ answers: Answers }),
    responses: { 201: { description: "The task was created", schema: Submitted }, 400: { description: "An answer is missing or invalid" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { form, caller } = yield* onForm(context, params.formId, "member")
        const task = yield* submit(form, body.answers, caller.userId, "member")
        return { accepted: true, taskId: task.id }
      })
  }),
  operation({
    operationId: "getPublicForm",
    method: "GET",
    path: "/v1/public/forms/{token}",
    summary: "A form by its public link, to render it (no credentials)",
    auth: "public",
    scopes: [],
    params: TokenParams,
    responses: { 200: { description: "The form", schema: PublicForm }, 404: { description: "No such link (or it was closed)" } },
    handler: ({ params }) =>
      Effect.map(publicForm(params.token), (form) => ({
        id: form.id,
        name: form.name,
        description: form.description,
        fields: form.fields.map((field) => ({ key: answerKey(field), ...field }))
      }))
  }),
  operation({
    operationId: "submitPublicForm",
    method: "POST",
    path: "/v1/public/forms/{token}/submissions",
    summary: "Submit a form through its public link (no credentials); limited per minute",
    description:
      "The task is created in the form's list on behalf of the form's author. `website` is a honeypot: leave it out or empty (a form renders it hidden); a submission that fills it is answered as accepted and dropped.",
    auth: "public",
    scopes: [],
    params: TokenParams,
    body: Schema.Struct({
      answers: Answers,
      website: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(2000)).annotate({ description: "Honeypot: must stay empty" }))
    }),
    responses: {
      202: { description: "Accepted", schema: Submitted },
      400: { description: "An answer is missing or invalid" },
      404: { description: "No such link" },
      429: { description: "Too many submissions this minute" }
    },
    handler: ({ params, body }) =>
      Effect.gen(function* () {
        const form = yield* publicForm(params.token)
        if (body.website !== undefined && body.website.trim() !== "") return { accepted: true, taskId: null }
        if ((yield* orDieSql(recentPublicSubmissions(form.id))) >= form.rateLimitPerMinute)
          return yield* reject("rate_limited", "This form takes no more submissions this minute; try again shortly")
        yield* submit(form, body.answers, form.createdBy, "public")
        return { accepted: true, taskId: null }
      })
  })
]
