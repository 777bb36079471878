/**
 * Custom field definitions (on a space, folder or list) and the values tasks
 * carry. A task may hold a value of every field defined on its list, its
 * folder or its space; each value is validated against its definition and
 * stored normalized (dropdown and labels store option ids).
 */
import { Effect, Schema } from "effect"
import { Name } from "../Fields.ts"
import { query, type Sql, type SqlError } from "../../persistence/Sql.ts"
import { InvalidFieldValue } from "./PlanningErrors.ts"
import type { NotWorkspaceMembers } from "./PmErrors.ts"
import {
  CustomFieldNameTaken,
  CustomFieldNotFound,
  CustomFieldNotHere,
  FieldHasNoOptions,
  OptionNameTaken,
  OptionNotFound
} from "./WorkErrors.ts"
import { change } from "./Changes.ts"
import type { Chain } from "./Statuses.ts"
import { requireMembers } from "./Members.ts"
import { Color, type CustomField, type FieldConfig, type FieldOption, FieldType, isoDate, type ScopeType } from "./WorkRecords.ts"

export const fieldColumns = `id, workspace_id AS "workspaceId", scope_type AS "scopeType", scope_id AS "scopeId", name, type, description,
  required, config, position, created_by AS "createdBy", created_at AS "createdAt", updated_at AS "updatedAt"`

export const fieldsOfScope = (scopeType: ScopeType, scopeId: string) =>
  query<CustomField>(`SELECT ${fieldColumns} FROM pm_custom_fields WHERE scope_type = $1 AND scope_id = $2 ORDER BY position, created_at`, [
    scopeType,
    scopeId
  ])

const levelRank: Record<ScopeType, number> = { space: 0, folder: 1, list: 2 }

/** Fields available at `chain` (its own and every ancestor's), outermost first. */
export const availableFields = (
  chain: Pick<Chain, "spaceId" | "folderId" | "listId">
): Effect.Effect<ReadonlyArray<CustomField>, SqlError, Sql> =>
  Effect.map(
    query<CustomField>(
      `SELECT ${fieldColumns} FROM pm_custom_fields
        WHERE (scope_type = 'space' AND scope_id = $1) OR (scope_type = 'folder' AND scope_id = $2) OR (scope_type = 'list' AND scope_id = $3)`,
      [chain.spaceId, chain.folderId ?? "", chain.listId ?? ""]
    ),
    (rows) => [...rows].sort((a, b) => levelRank[a.scopeType] - levelRank[b.scopeType] || a.position - b.position)
  )

export const getField = (fieldId: string) =>
  Effect.flatMap(query<CustomField>(`SELECT ${fieldColumns} FROM pm_custom_fields WHERE id = $1`, [fieldId]), (rows) =>
    rows[0] ? Effect.succeed(rows[0]) : Effect.fail(new CustomFieldNotFound())
  )

const invalid = (field: string, problem: string) => Effect.fail(new InvalidFieldValue({ field, problem }))

const optionOf = (options: ReadonlyArray<FieldOption>, value: unknown) =>
  typeof value === "string"
    ? (options.find((o) => o.id === value) ?? options.find((o) => o.name.toLowerCase() === value.trim().toLowerCase()))
    : undefined

/**
 * Validates `value` against the field and returns what is stored. Options
 * may be named by id or (case-insensitive) name; dates are normalized to ISO.
 */
export const validateValue = (
  field: CustomField,
  value: unknown,
  path: string
): Effect.Effect<unknown, InvalidFieldValue | NotWorkspaceMembers | SqlError, Sql> => {
  const config = field.config
  switch (field.type) {
    case "text":
      return typeof value === "string" && value.length <= 5000
        ? Effect.succeed(value)
        : invalid(path, "expected a string of at most 5000 characters")
    case "number":
    case "currency": {
      if (typeof value !== "number" || !Number.isFinite(value)) return invalid(path, "expected a number")
      if (config.min !== undefined && value < config.min) return invalid(path, `must be at least ${config.min}`)
      if (config.max !== undefined && value > config.max) return invalid(path, `must be at most ${config.max}`)
      return Effect.succeed(value)
    }
    case "date": {
      const iso = typeof value === "string" ? isoDate(value) : undefined
      return iso ? Effect.succeed(iso) : invalid(path, "expected an ISO 8601 date")
    }
    case "dropdown": {
      const option = optionOf(config.options ?? [], value)
      return option
        ? Effect.succeed(option.id)
        : invalid(path, `expected one of ${(config.options ?? []).map((o) => o.name).join(", ") || "(no options defined)"}`)
    }
    case "labels": {
      if (!Array.isArray(value)) return invalid(path, "expected an array of option ids or names")
      const ids: Array<string> = []
      for (const [index, item] of value.entries()) {
        const option = optionOf(config.options ?? [], item)
        if (!option)
          return invalid(
            `${path}.${index}`,
            `expected one of ${(config.options ?? []).map((o) => o.name).join(", ") || "(no options defined)"}`
          )
        if (!ids.includes(option.id)) ids.push(option.id)
      }
      return Effect.succeed(ids)
    }
    case "checkbox":
      return typeof value === "boolean" ? Effect.succeed(value) : invalid(path, "expected true or false")
    case "email":
      return typeof value === "string" && value.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)
        ? Effect.succeed(value.trim().toLowerCase())
        : invalid(path, "expected an e-mail address")
    case "url":
      return typeof value === "string" && value.length <= 2000 && /^https?:\/\/[^\s/$.?#][^\s]*$/i.test(value)
        ? Effect.succeed(value)
        : invalid(path, "expected an http(s) URL")
    case "phone":
      return typeof value === "string" && /^\+?[0-9][0-9 ()-]{3,30}$/.test(value)
        ? Effect.succeed(value)
        : invalid(path, "expected a phone number")
    case "rating": {
      const max = config.max ?? 5
      return typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= max
        ? Effect.succeed(value)
        : invalid(path, `expected an integer from 0 to ${max}`)
    }
    case "users": {
      if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) return invalid(path, "expected an array of user ids")
      const ids = [...new Set(value as Array<string>)]
      return Effect.as(requireMembers(field.workspaceId, ids, path), ids)
    }
  }
}

/** How a stored value reads back (dropdown and labels as option objects). */
export const presentValue = (field: Pick<CustomField, "type" | "config">, stored: unknown): unknown => {
  if (field.type === "dropdown") return (field.config.options ?? []).find((o) => o.id === stored) ?? null
  if (field.type === "labels") return (field.config.options ?? []).filter((o) => (stored as Array<string>).includes(o.id))
  return stored
}

// ---------------------------------------------------------------------------
// Definitions (commands of the owning actor)

export const OptionInput = Schema.Struct({ name: Name(100), color: Schema.optionalKey(Schema.NullOr(Color)) })
export type OptionInput = typeof OptionInput.Type

const Description = Schema.String.check(Schema.isMaxLength(2000))
const Currency = Schema.String.check(Schema.isPattern(/^[A-Z]{3}$/, { expected: "an ISO 4217 code such as USD" }))
const Precision = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 6 }))

export const FieldInput = Schema.Struct({
  name: Name(100),
  type: FieldType,
  description: Schema.optionalKey(Description),
  required: Schema.optionalKey(Schema.Boolean),
  options: Schema.optionalKey(Schema.Array(OptionInput).check(Schema.isMaxLength(200))),
  currency: Schema.optionalKey(Currency),
  precision: Schema.optionalKey(Precision),
  min: Schema.optionalKey(Schema.Finite),
  max: Schema.optionalKey(Schema.Finite)
})
export type FieldInput = typeof FieldInput.Type

export const FieldPatch = Schema.Struct({
  name: Schema.optionalKey(Name(100)),
  description: Schema.optionalKey(Description),
  required: Schema.optionalKey(Schema.Boolean),
  currency: Schema.optionalKey(Currency),
  precision: Schema.optionalKey(Precision),
  min: Schema.optionalKey(Schema.NullOr(Schema.Finite)),
  max: Schema.optionalKey(Schema.NullOr(Schema.Finite))
})
export type FieldPatch = typeof FieldPatch.Type

const hasOptions = (type: FieldType) => type === "dropdown" || type === "labels"

const checkOptionNames = (options: ReadonlyArray<{ readonly name: string }>, path: string) => {
  const seen = new Set<string>()
  for (const [index, option] of options.entries()) {
    const key = option.name.trim().toLowerCase()
    if (seen.has(key)) return invalid(`${path}.${index}.name`, "duplicate option name")
    seen.add(key)
  }
  return Effect.void
}

/** The stored configuration of a new field, checked against its type. */
const configFor = (input: FieldInput): Effect.Effect<FieldConfig, InvalidFieldValue> =>
  Effect.gen(function* () {
    if (input.options !== undefined && !hasOptions(input.type))
      return yield* invalid("body.options", `a ${input.type} field has no options`)
    if (input.currency !== undefined && input.type !== "currency")
      return yield* invalid("body.currency", `a ${input.type} field has no currency`)
    if (input.precision !== undefined && input.type !== "number" && input.type !== "currency")
      return yield* invalid("body.precision", `a ${input.type} field has no precision`)
    if (input.min !== undefined && input.type !== "number" && input.type !== "currency")
      return yield* invalid("body.min", `a ${input.type} field has no minimum`)
    if (input.max !== undefined && input.type !== "number" && input.type !== "currency" && input.type !== "rating")
      return yield* invalid("body.max", `a ${input.type} field has no maximum`)
    if (input.type === "rating" && input.max !== undefined && !(Number.isInteger(input.max) && input.max >= 1 && input.max <= 10))
      return yield* invalid("body.max", "a rating goes up to 1..10")
    if (input.min !== undefined && input.max !== undefined && input.min > input.max)
      return yield* invalid("body.min", "must not exceed max")
    if (input.options) yield* checkOptionNames(input.options, "body.options")
    return {
      ...(hasOptions(input.type)
        ? { options: (input.options ?? []).map((o) => ({ id: crypto.randomUUID(), name: o.name.trim(), color: o.color ?? null })) }
        : {}),
      ...(input.type === "currency" ? { currency: input.currency ?? "USD", precision: input.precision ?? 2 } : {}),
      ...(input.type === "number" && input.precision !== undefined ? { precision: input.precision } : {}),
      ...(input.min !== undefined ? { min: input.min } : {}),
      ...(input.max !== undefined ? { max: input.max } : input.type === "rating" ? { max: 5 } : {})
    }
  })

export interface FieldScope {
  readonly chain: Chain
  readonly scopeType: ScopeType
  readonly scopeId: string
}

const whereOf = (scope: FieldScope) => ({ workspaceId: scope.chain.workspaceId, spaceId: scope.chain.spaceId, listId: scope.chain.listId })

/** The field, which must be defined on exactly this scope. */
export const fieldInScope = (scope: FieldScope, fieldId: string) =>
  Effect.flatMap(getField(fieldId), (field) =>
    field.scopeType === scope.scopeType && field.scopeId === scope.scopeId ? Effect.succeed(field) : Effect.fail(new CustomFieldNotHere())
  )

export const createField = (scope: FieldScope, input: FieldInput, by: string) =>
  Effect.gen(function* () {
    const config = yield* configFor(input)
    const visible = yield* availableFields(scope.chain)
    if (visible.some((f) => f.name.toLowerCase() === input.name.trim().toLowerCase())) {
      return yield* new CustomFieldNameTaken({ name: input.name.trim() })
    }
    const own = yield* fieldsOfScope(scope.scopeType, scope.scopeId)
    const position = own.length > 0 ? Math.max(...own.map((f) => f.position)) + 1 : 1
    const [field] = yield* query<CustomField>(
      `INSERT INTO pm_custom_fields (id, workspace_id, scope_type, scope_id, name, type, description, required, config, position, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING ${fieldColumns}`,
      [
        crypto.randomUUID(),
        scope.chain.workspaceId,
        scope.scopeType,
        scope.scopeId,
        input.name.trim(),
        input.type,
        input.description ?? "",
        input.required ?? false,
        config,
        position,
        by
      ]
    )
    return {
      result: field!,
      changes: [
        change(
          whereOf(scope),
          "custom_field.created",
          field!.id,
          { scopeType: scope.scopeType, scopeId: scope.scopeId, name: field!.name, type: field!.type },
          by
        )
      ]
    }
  })

export const updateField = (scope: FieldScope, fieldId: string, patch: FieldPatch, by: string) =>
  Effect.gen(function* () {
    const field = yield* fieldInScope(scope, fieldId)
    const name = patch.name?.trim() ?? field.name
    if (name.toLowerCase() !== field.name.toLowerCase()) {
      const visible = yield* availableFields(scope.chain)
      if (visible.some((f) => f.id !== field.id && f.name.toLowerCase() === name.toLowerCase())) {
        return yield* new CustomFieldNameTaken({ name })
      }
    }
    const numeric = field.type === "number" || field.type === "currency"
    if (patch.currency !== undefined && field.type !== "currency")
      return yield* invalid("body.currency", `a ${field.type} field has no currency`)
    if (patch.precision !== undefined && !numeric) return yield* invalid("body.precision", `a ${field.type} field has no precision`)
    if (patch.min !== undefined && !numeric) return yield* invalid("body.min", `a ${field.type} field has no minimum`)
    if (patch.max !== undefined && !numeric && field.type !== "rating")
      return yield* invalid("body.max", `a ${field.type} field has no maximum`)
    if (
      field.type === "rating" &&
      patch.max !== undefined &&
      !(patch.max !== null && Number.isInteger(patch.max) && patch.max >= 1 && patch.max <= 10)
    )
      return yield* invalid("body.max", "a rating goes up to 1..10")
    const config: Record<string, unknown> = { ...field.config }
    if (patch.currency !== undefined) config.currency = patch.currency
    if (patch.precision !== undefined) config.precision = patch.precision
    for (const key of ["min", "max"] as const) {
      if (patch[key] === null) delete config[key]
      else if (patch[key] !== undefined) config[key] = patch[key]
    }
    if (typeof config.min === "number" && typeof config.max === "number" && config.min > config.max)
      return yield* invalid("body.min", "must not exceed max")
    const [updated] = yield* query<CustomField>(
      `UPDATE pm_custom_fields SET name = $2, description = $3, required = $4, config = $5, updated_at = now() WHERE id = $1 RETURNING ${fieldColumns}`,
      [field.id, name, patch.description ?? field.description, patch.required ?? field.required, config]
    )
    const changed = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined))
    return { result: updated!, changes: [change(whereOf(scope), "custom_field.updated", field.id, changed, by)] }
  })

export const deleteField = (scope: FieldScope, fieldId: string, by: string) =>
  Effect.gen(function* () {
    const field = yield* fieldInScope(scope, fieldId)
    const cleared = yield* query<{ task_id: string }>(`DELETE FROM pm_task_custom_values WHERE field_id = $1 RETURNING task_id`, [field.id])
    yield* query(`DELETE FROM pm_custom_fields WHERE id = $1`, [field.id])
    return {
      result: undefined,
      changes: [change(whereOf(scope), "custom_field.deleted", field.id, { name: field.name, valuesCleared: cleared.length }, by)]
    }
  })

export const reorderFields = (scope: FieldScope, fieldIds: ReadonlyArray<string>, by: string) =>
  Effect.gen(function* () {
    const own = yield* fieldsOfScope(scope.scopeType, scope.scopeId)
    const known = new Set(own.map((f) => f.id))
    if (fieldIds.length !== known.size || new Set(fieldIds).size !== fieldIds.length || fieldIds.some((id) => !known.has(id))) {
      return yield* invalid("body.fieldIds", "must list every custom field defined here exactly once")
    }
    for (const [index, id] of fieldIds.entries()) yield* query(`UPDATE pm_custom_fields SET position = $2 WHERE id = $1`, [id, index + 1])
    const items = yield* fieldsOfScope(scope.scopeType, scope.scopeId)
    return { result: { items }, changes: [change(whereOf(scope), "custom_fields.reordered", scope.scopeId, { order: fieldIds }, by)] }
  })

const saveOptions = (field: CustomField, options: ReadonlyArray<FieldOption>) =>
  Effect.map(
    query<CustomField>(`UPDATE pm_custom_fields SET config = $2, updated_at = now() WHERE id = $1 RETURNING ${fieldColumns}`, [
      field.id,
      { ...field.config, options }
    ]),
    (rows) => rows[0]!
  )

const withOptions = (scope: FieldScope, fieldId: string) =>
  Effect.flatMap(fieldInScope(scope, fieldId), (field) =>
    hasOptions(field.type) ? Effect.succeed(field) : Effect.fail(new FieldHasNoOptions({ type: field.type }))
  )

export const addOption = (scope: FieldScope, fieldId: string, input: OptionInput, by: string) =>
  Effect.gen(function* () {
    const field = yield* withOptions(scope, fieldId)
    const options = field.config.options ?? []
    if (options.some((o) => o.name.toLowerCase() === input.name.trim().toLowerCase())) {
      return yield* new OptionNameTaken({ name: input.name.trim() })
    }
    const option: FieldOption = { id: crypto.randomUUID(), name: input.name.trim(), color: input.color ?? null }
    const updated = yield* saveOptions(field, [...options, option])
    return { result: updated, changes: [change(whereOf(scope), "custom_field.option_added", field.id, { option }, by)] }
  })

export const updateOption = (scope: FieldScope, fieldId: string, optionId: string, patch: Partial<OptionInput>, by: string) =>
  Effect.gen(function* () {
    const field = yield* withOptions(scope, fieldId)
    const options = field.config.options ?? []
    const current = options.find((o) => o.id === optionId)
    if (current === undefined) return yield* new OptionNotFound()
    const name = patch.name?.trim() ?? current.name
    if (options.some((o) => o.id !== optionId && o.name.toLowerCase() === name.toLowerCase())) {
      return yield* new OptionNameTaken({ name })
    }
    const option: FieldOption = { id: optionId, name, color: patch.color === undefined ? current.color : (patch.color ?? null) }
    const updated = yield* saveOptions(
      field,
      options.map((o) => (o.id === optionId ? option : o))
    )
    return { result: updated, changes: [change(whereOf(scope), "custom_field.option_updated", field.id, { option }, by)] }
  })

/** Removes an option and every value that chose it. */
export const deleteOption = (scope: FieldScope, fieldId: string, optionId: string, by: string) =>
  Effect.gen(function* () {
    const field = yield* withOptions(scope, fieldId)
    const options = field.config.options ?? []
    if (!options.some((o) => o.id === optionId)) return yield* new OptionNotFound()
    const updated = yield* saveOptions(
      field,
      options.filter((o) => o.id !== optionId)
    )
    if (field.type === "dropdown") {
      yield* query(`DELETE FROM pm_task_custom_values WHERE field_id = $1 AND value = to_jsonb($2::text)`, [field.id, optionId])
    } else {
      yield* query(`UPDATE pm_task_custom_values SET value = value - $2 WHERE field_id = $1 AND value ? $2`, [field.id, optionId])
    }
    return { result: updated, changes: [change(whereOf(scope), "custom_field.option_deleted", field.id, { optionId }, by)] }
  })

export const reorderOptions = (scope: FieldScope, fieldId: string, optionIds: ReadonlyArray<string>, by: string) =>
  Effect.gen(function* () {
    const field = yield* withOptions(scope, fieldId)
    const options = field.config.options ?? []
    const byId = new Map(options.map((o) => [o.id, o] as const))
    if (optionIds.length !== options.length || new Set(optionIds).size !== optionIds.length || optionIds.some((id) => !byId.has(id))) {
      return yield* invalid("body.optionIds", "must list every option exactly once")
    }
    const updated = yield* saveOptions(
      field,
      optionIds.map((id) => byId.get(id)!)
    )
    return { result: updated, changes: [change(whereOf(scope), "custom_field.options_reordered", field.id, { order: optionIds }, by)] }
  })
