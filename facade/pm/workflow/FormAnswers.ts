/**
 * A form's answers → the task they create: each answer under its field's key
 * (the target, or the custom field's id), required ones present, nothing the
 * form does not ask for; then checked as a task body is (the same schema and
 * rules), with every problem named at `body.answers.<key>`.
 */
import { Effect } from "effect"
import type { RejectionDetail } from "../../../runtime/Rejection.ts"
import type { Form, FormField } from "../../../actors/pmops/Forms.ts"
import { answerKey } from "../../../actors/pmops/Forms.ts"
import type { ListPlace } from "../../../actors/pm/WorkActors.ts"
import { invalid, taskInputOf } from "./TaskBodies.ts"

const isEmpty = (value: unknown) =>
  value === undefined ||
  value === null ||
  (typeof value === "string" && value.trim() === "") ||
  (Array.isArray(value) && value.length === 0)

/** The form's fields must make sense on its list: one required name, custom fields of the list, no key twice. */
export const checkFormFields = (fields: ReadonlyArray<FormField>, list: ListPlace, prefix = "body.fields") => {
  const details: Array<RejectionDetail> = []
  const seen = new Set<string>()
  fields.forEach((field, index) => {
    const at = `${prefix}.${index}`
    if (field.target === "customField") {
      if (field.fieldId === undefined) details.push({ path: `${at}.fieldId`, message: "required for a customField" })
      else if (!list.customFields.some((f) => f.id === field.fieldId))
        details.push({ path: `${at}.fieldId`, message: "not a custom field of this list" })
    } else if (field.fieldId !== undefined) details.push({ path: `${at}.fieldId`, message: "only a customField names a fieldId" })
    if (field.fieldId !== undefined || field.target !== "customField") {
      const key = answerKey(field)
      if (seen.has(key)) details.push({ path: `${at}.target`, message: `asks for ${key} twice` })
      seen.add(key)
    }
    if (field.target === "name" && field.required === false)
      details.push({ path: `${at}.required`, message: "the task name is always required" })
  })
  if (!fields.some((f) => f.target === "name"))
    details.push({ path: prefix, message: "a form asks for the task name (a field with target name)" })
  return details.length ? invalid(details) : Effect.void
}

/** The create input of the task the answers make (custom-field values are checked by the write path). */
export const taskFromAnswers = (form: Form, answers: Readonly<Record<string, unknown>>) =>
  Effect.gen(function* () {
    const details: Array<RejectionDetail> = []
    const keys = new Map(form.fields.map((f) => [answerKey(f), f]))
    for (const key of Object.keys(answers)) {
      if (!keys.has(key)) details.push({ path: `body.answers.${key}`, message: "not a field of this form" })
    }
    for (const [key, field] of keys) {
      if ((field.required || field.target === "name") && isEmpty(answers[key]))
        details.push({ path: `body.answers.${key}`, message: "required" })
    }
    if (details.length) return yield* invalid(details)
    const body: Record<string, unknown> = {}
    const customFields: Record<string, unknown> = {}
    for (const [key, field] of keys) {
      const value = answers[key]
      if (isEmpty(value)) continue
      if (field.target === "customField") customFields[key] = value
      else body[field.target] = value
    }
    if (Object.keys(customFields).length) body.customFields = customFields
    return yield* taskInputOf(form.workspaceId, body, "body.answers", (path) => (path[0] === "customFields" ? path[1] : path[0]) ?? "")
  })
