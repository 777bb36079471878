/**
 * Property management of a space, folder or list — statuses, custom field
 * definitions, watchers — as commands of the owning actor: the space actor
 * owns its own and its folders' properties, the list actor its own.
 */
import { Effect, Schema } from "effect"
import { Id, Name } from "../Fields.ts"
import { query } from "../../persistence/Sql.ts"
import { change } from "./Changes.ts"
import * as Fields from "./CustomFields.ts"
import { locateScope } from "./Locate.ts"
import { requireMembers } from "./Members.ts"
import * as Statuses from "./Statuses.ts"
import { InvalidFieldValue } from "./PlanningErrors.ts"
import { NotWorkspaceMembers, PlaceNotFound } from "./PmErrors.ts"
import { command } from "./WorkActor.ts"
import {
  AlreadyInheritsStatuses,
  AlreadyWatching,
  CustomFieldNameTaken,
  CustomFieldNotFound,
  CustomFieldNotHere,
  DuplicateStatusName,
  FieldHasNoOptions,
  NoStatusToMoveTo,
  NotAPermutation,
  NotWatching,
  OptionNameTaken,
  OptionNotFound,
  SpaceOwnsStatuses,
  StatusNameTaken,
  StatusNotFound,
  UnknownMappingTarget,
  WorkflowIncomplete
} from "./WorkErrors.ts"
import { Color, CustomField, EffectiveStatuses, ScopeType, Status, StatusType } from "./WorkRecords.ts"

/** Which space, folder or list a property command is about. */
const Scope = { scopeType: ScopeType, scopeId: Id }
type ScopeInput = { readonly scopeType: ScopeType; readonly scopeId: string }

/** Bodies of status and option edits (the facade declares its routes with them). */
export const StatusPatch = Schema.Struct({
  name: Schema.optionalKey(Name(64)),
  type: Schema.optionalKey(StatusType),
  color: Schema.optionalKey(Color)
})
export const StatusSet = Schema.Struct({
  statuses: Schema.Array(Statuses.StatusInput).check(Schema.isMinLength(2), Schema.isMaxLength(50)),
  mapping: Schema.optionalKey(Schema.Record(Schema.String, Name(64)))
})
export const OptionPatch = Schema.Struct({ name: Schema.optionalKey(Name(100)), color: Schema.optionalKey(Schema.NullOr(Color)) })

export const StatusOrder = Schema.Struct({ statusIds: Schema.Array(Id).check(Schema.isMaxLength(100)) })
export const FieldOrder = Schema.Struct({ fieldIds: Schema.Array(Id).check(Schema.isMaxLength(200)) })
export const OptionOrder = Schema.Struct({ optionIds: Schema.Array(Id).check(Schema.isMaxLength(200)) })
const Watcher = Schema.Struct({ userId: Id })

/** The scope, checked to belong to the actor that runs the command. */
const scopeRef = (owner: "space" | "list", input: ScopeInput, actorId: string) =>
  Effect.gen(function* () {
    const located = yield* locateScope(input.scopeType, input.scopeId)
    const owned =
      owner === "list" ? input.scopeType === "list" && input.scopeId === actorId : input.scopeType !== "list" && located.spaceId === actorId
    if (!owned) return yield* new PlaceNotFound({ what: input.scopeType })
    const chain: Statuses.Chain = {
      workspaceId: located.workspaceId,
      spaceId: located.spaceId,
      folderId: located.folderId,
      listId: located.listId
    }
    return { chain, scopeType: input.scopeType, scopeId: input.scopeId }
  })

const watcherScopeWhere = (ref: Statuses.ScopeRef) => ({
  workspaceId: ref.chain.workspaceId,
  spaceId: ref.chain.spaceId,
  listId: ref.chain.listId
})

// What each property command may be refused with, beyond its scope not being the actor's (`PlaceNotFound`).
const StatusSetRefused = [DuplicateStatusName, WorkflowIncomplete] as const
const FieldRefused = [PlaceNotFound, CustomFieldNotFound, CustomFieldNotHere] as const
const OptionRefused = [...FieldRefused, FieldHasNoOptions] as const

export const propertyCommands = (owner: "space" | "list") => ({
  createStatus: command(
    Schema.Struct({ ...Scope, ...Statuses.StatusInput.fields }),
    Status,
    Schema.Union([PlaceNotFound, StatusNameTaken]),
    (input, by, id) => Effect.flatMap(scopeRef(owner, input, id), (ref) => Statuses.createStatus(ref, input, by))
  ),
  updateStatus: command(
    Schema.Struct({ ...Scope, statusId: Id, ...StatusPatch.fields }),
    Status,
    Schema.Union([PlaceNotFound, StatusNotFound, StatusNameTaken, ...StatusSetRefused]),
    (input, by, id) =>
      Effect.flatMap(scopeRef(owner, input, id), (ref) =>
        Statuses.updateStatus(ref, input.statusId, { name: input.name, type: input.type, color: input.color }, by)
      )
  ),
  deleteStatus: command(
    Schema.Struct({ ...Scope, statusId: Id, moveTo: Schema.optionalKey(Name(64)) }),
    Schema.Struct({ deleted: Id, tasksMoved: Schema.Number }),
    Schema.Union([PlaceNotFound, StatusNotFound, NoStatusToMoveTo, ...StatusSetRefused]),
    (input, by, id) => Effect.flatMap(scopeRef(owner, input, id), (ref) => Statuses.deleteStatus(ref, input.statusId, input.moveTo, by))
  ),
  reorderStatuses: command(
    Schema.Struct({ ...Scope, ...StatusOrder.fields }),
    Schema.Struct({ items: Schema.Array(Status) }),
    Schema.Union([PlaceNotFound, NotAPermutation]),
    (input, by, id) => Effect.flatMap(scopeRef(owner, input, id), (ref) => Statuses.reorderStatuses(ref, input.statusIds, by))
  ),
  replaceStatuses: command(
    Schema.Struct({ ...Scope, ...StatusSet.fields }),
    Schema.Struct({ items: Schema.Array(Status), tasksMoved: Schema.Number }),
    Schema.Union([PlaceNotFound, UnknownMappingTarget, ...StatusSetRefused]),
    (input, by, id) => Effect.flatMap(scopeRef(owner, input, id), (ref) => Statuses.replaceStatuses(ref, input.statuses, input.mapping, by))
  ),
  resetStatuses: command(
    Schema.Struct(Scope),
    Schema.Struct({ ...EffectiveStatuses.fields, tasksMoved: Schema.Number }),
    Schema.Union([PlaceNotFound, SpaceOwnsStatuses, AlreadyInheritsStatuses]),
    (input, by, id) =>
      Effect.gen(function* () {
        const ref = yield* scopeRef(owner, input, id)
        if (ref.scopeType === "space") return yield* new SpaceOwnsStatuses()
        return yield* Statuses.resetStatuses(ref, by)
      })
  ),

  createField: command(
    Schema.Struct({ ...Scope, ...Fields.FieldInput.fields }),
    CustomField,
    Schema.Union([PlaceNotFound, InvalidFieldValue, CustomFieldNameTaken]),
    (input, by, id) => Effect.flatMap(scopeRef(owner, input, id), (ref) => Fields.createField(ref, input, by))
  ),
  updateField: command(
    Schema.Struct({ ...Scope, fieldId: Id, ...Fields.FieldPatch.fields }),
    CustomField,
    Schema.Union([...FieldRefused, InvalidFieldValue, CustomFieldNameTaken]),
    (input, by, id) =>
      Effect.flatMap(scopeRef(owner, input, id), (ref) => {
        const { scopeType: _s, scopeId: _i, fieldId, ...patch } = input
        return Fields.updateField(ref, fieldId, patch, by)
      })
  ),
  deleteField: command(Schema.Struct({ ...Scope, fieldId: Id }), Schema.Void, Schema.Union(FieldRefused), (input, by, id) =>
    Effect.flatMap(scopeRef(owner, input, id), (ref) => Fields.deleteField(ref, input.fieldId, by))
  ),
  reorderFields: command(
    Schema.Struct({ ...Scope, ...FieldOrder.fields }),
    Schema.Struct({ items: Schema.Array(CustomField) }),
    Schema.Union([PlaceNotFound, InvalidFieldValue]),
    (input, by, id) => Effect.flatMap(scopeRef(owner, input, id), (ref) => Fields.reorderFields(ref, input.fieldIds, by))
  ),
  addFieldOption: command(
    Schema.Struct({ ...Scope, fieldId: Id, ...Fields.OptionInput.fields }),
    CustomField,
    Schema.Union([...OptionRefused, OptionNameTaken]),
    (input, by, id) =>
      Effect.flatMap(scopeRef(owner, input, id), (ref) =>
        Fields.addOption(ref, input.fieldId, { name: input.name, color: input.color ?? null }, by)
      )
  ),
  updateFieldOption: command(
    Schema.Struct({ ...Scope, fieldId: Id, optionId: Id, ...OptionPatch.fields }),
    CustomField,
    Schema.Union([...OptionRefused, OptionNotFound, OptionNameTaken]),
    (input, by, id) =>
      Effect.flatMap(scopeRef(owner, input, id), (ref) =>
        Fields.updateOption(ref, input.fieldId, input.optionId, { name: input.name, color: input.color }, by)
      )
  ),
  deleteFieldOption: command(
    Schema.Struct({ ...Scope, fieldId: Id, optionId: Id }),
    CustomField,
    Schema.Union([...OptionRefused, OptionNotFound]),
    (input, by, id) => Effect.flatMap(scopeRef(owner, input, id), (ref) => Fields.deleteOption(ref, input.fieldId, input.optionId, by))
  ),
  reorderFieldOptions: command(
    Schema.Struct({ ...Scope, fieldId: Id, ...OptionOrder.fields }),
    CustomField,
    Schema.Union([...OptionRefused, InvalidFieldValue]),
    (input, by, id) => Effect.flatMap(scopeRef(owner, input, id), (ref) => Fields.reorderOptions(ref, input.fieldId, input.optionIds, by))
  ),

  addWatcher: command(
    Schema.Struct({ ...Scope, ...Watcher.fields }),
    Watcher,
    Schema.Union([PlaceNotFound, NotWorkspaceMembers, AlreadyWatching]),
    (input, by, id) =>
      Effect.gen(function* () {
        const ref = yield* scopeRef(owner, input, id)
        yield* requireMembers(ref.chain.workspaceId, [input.userId], "body.userId")
        const added = yield* query(
          `INSERT INTO pm_watchers (scope_type, scope_id, user_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING user_id`,
          [input.scopeType, input.scopeId, input.userId]
        )
        if (added.length === 0) return yield* new AlreadyWatching({})
        return {
          result: { userId: input.userId },
          changes: [
            change(watcherScopeWhere(ref), "watcher.added", input.scopeId, { scopeType: input.scopeType, userId: input.userId }, by)
          ]
        }
      })
  ),
  removeWatcher: command(
    Schema.Struct({ ...Scope, ...Watcher.fields }),
    Schema.Void,
    Schema.Union([PlaceNotFound, NotWatching]),
    (input, by, id) =>
      Effect.gen(function* () {
        const ref = yield* scopeRef(owner, input, id)
        const removed = yield* query(`DELETE FROM pm_watchers WHERE scope_type = $1 AND scope_id = $2 AND user_id = $3 RETURNING user_id`, [
          input.scopeType,
          input.scopeId,
          input.userId
        ])
        if (removed.length === 0) return yield* new NotWatching({})
        return {
          result: undefined,
          changes: [
            change(watcherScopeWhere(ref), "watcher.removed", input.scopeId, { scopeType: input.scopeType, userId: input.userId }, by)
          ]
        }
      })
  )
})

/** Watchers of a space, folder, list or task, oldest first. */
export const watchersOf = (scopeType: string, scopeId: string) =>
  Effect.map(
    query<{ userId: string; addedAt: string }>(
      `SELECT user_id AS "userId", added_at AS "addedAt" FROM pm_watchers WHERE scope_type = $1 AND scope_id = $2 ORDER BY added_at, user_id`,
      [scopeType, scopeId]
    ),
    (rows) => rows
  )
