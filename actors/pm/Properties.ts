/**
 * Property management of a space, folder or list — statuses, custom field
 * definitions, watchers — as commands of the owning actor: the space actor
 * owns its own and its folders' properties, the list actor its own.
 */
import { Effect } from "effect"
import { query, type Sql, type SqlError } from "../../persistence/Sql.ts"
import { reject, type Rejection } from "../../runtime/Rejection.ts"
import type { Change } from "./ChangeLog.ts"
import { change } from "./Changes.ts"
import * as Fields from "./CustomFields.ts"
import { locateScope } from "./Locate.ts"
import { requireMembers } from "./Members.ts"
import * as Statuses from "./Statuses.ts"
import type { ScopeType, StatusType } from "./WorkRecords.ts"

type Result<A> = Effect.Effect<{ readonly result: A; readonly changes: ReadonlyArray<Change> }, Rejection | SqlError, Sql>

export interface ScopeInput {
  readonly scopeType: ScopeType
  readonly scopeId: string
}

/** The scope, checked to belong to the actor that runs the command. */
const scopeRef = (owner: "space" | "list", input: ScopeInput, actorId: string) =>
  Effect.gen(function* () {
    const located = yield* locateScope(input.scopeType, input.scopeId)
    const owned = owner === "list"
      ? input.scopeType === "list" && input.scopeId === actorId
      : input.scopeType !== "list" && located.spaceId === actorId
    if (!owned) return yield* reject("not_found", `No such ${input.scopeType}`)
    const chain: Statuses.Chain = { workspaceId: located.workspaceId, spaceId: located.spaceId, folderId: located.folderId, listId: located.listId }
    return { chain, scopeType: input.scopeType, scopeId: input.scopeId }
  })

const watcherScopeWhere = (ref: Statuses.ScopeRef) => ({ workspaceId: ref.chain.workspaceId, spaceId: ref.chain.spaceId, listId: ref.chain.listId })

export const propertyCommands = (owner: "space" | "list") => ({
  createStatus: (input: ScopeInput & Statuses.StatusInput, by: string, id: string): Result<unknown> =>
    Effect.flatMap(scopeRef(owner, input, id), (ref) => Statuses.createStatus(ref, input, by)),
  updateStatus: (input: ScopeInput & { readonly statusId: string; readonly name?: string; readonly type?: StatusType; readonly color?: string }, by: string, id: string): Result<unknown> =>
    Effect.flatMap(scopeRef(owner, input, id), (ref) => Statuses.updateStatus(ref, input.statusId, { name: input.name, type: input.type, color: input.color }, by)),
  deleteStatus: (input: ScopeInput & { readonly statusId: string; readonly moveTo?: string }, by: string, id: string): Result<unknown> =>
    Effect.flatMap(scopeRef(owner, input, id), (ref) => Statuses.deleteStatus(ref, input.statusId, input.moveTo, by)),
  reorderStatuses: (input: ScopeInput & { readonly statusIds: ReadonlyArray<string> }, by: string, id: string): Result<unknown> =>
    Effect.flatMap(scopeRef(owner, input, id), (ref) => Statuses.reorderStatuses(ref, input.statusIds, by)),
  replaceStatuses: (input: ScopeInput & { readonly statuses: ReadonlyArray<Statuses.StatusInput>; readonly mapping?: Record<string, string> }, by: string, id: string): Result<unknown> =>
    Effect.flatMap(scopeRef(owner, input, id), (ref) => Statuses.replaceStatuses(ref, input.statuses, input.mapping, by)),
  resetStatuses: (input: ScopeInput, by: string, id: string): Result<unknown> =>
    Effect.flatMap(scopeRef(owner, input, id), (ref) =>
      ref.scopeType === "space" ? Effect.fail(reject("conflict", "A space always has its own statuses")) : Statuses.resetStatuses(ref, by)),

  createField: (input: ScopeInput & Fields.FieldInput, by: string, id: string): Result<unknown> =>
    Effect.flatMap(scopeRef(owner, input, id), (ref) => Fields.createField(ref, input, by)),
  updateField: (input: ScopeInput & { readonly fieldId: string } & Fields.FieldPatch, by: string, id: string): Result<unknown> =>
    Effect.flatMap(scopeRef(owner, input, id), (ref) => {
      const { scopeType: _s, scopeId: _i, fieldId, ...patch } = input
      return Fields.updateField(ref, fieldId, patch, by)
    }),
  deleteField: (input: ScopeInput & { readonly fieldId: string }, by: string, id: string): Result<unknown> =>
    Effect.flatMap(scopeRef(owner, input, id), (ref) => Fields.deleteField(ref, input.fieldId, by)),
  reorderFields: (input: ScopeInput & { readonly fieldIds: ReadonlyArray<string> }, by: string, id: string): Result<unknown> =>
    Effect.flatMap(scopeRef(owner, input, id), (ref) => Fields.reorderFields(ref, input.fieldIds, by)),
  addFieldOption: (input: ScopeInput & { readonly fieldId: string } & Fields.OptionInput, by: string, id: string): Result<unknown> =>
    Effect.flatMap(scopeRef(owner, input, id), (ref) => Fields.addOption(ref, input.fieldId, { name: input.name, color: input.color ?? null }, by)),
  updateFieldOption: (input: ScopeInput & { readonly fieldId: string; readonly optionId: string; readonly name?: string; readonly color?: string | null }, by: string, id: string): Result<unknown> =>
    Effect.flatMap(scopeRef(owner, input, id), (ref) => Fields.updateOption(ref, input.fieldId, input.optionId, { name: input.name, color: input.color }, by)),
  deleteFieldOption: (input: ScopeInput & { readonly fieldId: string; readonly optionId: string }, by: string, id: string): Result<unknown> =>
    Effect.flatMap(scopeRef(owner, input, id), (ref) => Fields.deleteOption(ref, input.fieldId, input.optionId, by)),
  reorderFieldOptions: (input: ScopeInput & { readonly fieldId: string; readonly optionIds: ReadonlyArray<string> }, by: string, id: string): Result<unknown> =>
    Effect.flatMap(scopeRef(owner, input, id), (ref) => Fields.reorderOptions(ref, input.fieldId, input.optionIds, by)),

  addWatcher: (input: ScopeInput & { readonly userId: string }, by: string, id: string): Result<unknown> =>
    Effect.gen(function* () {
      const ref = yield* scopeRef(owner, input, id)
      yield* requireMembers(ref.chain.workspaceId, [input.userId], "body.userId")
      const added = yield* query(`INSERT INTO pm_watchers (scope_type, scope_id, user_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING user_id`, [input.scopeType, input.scopeId, input.userId])
      if (added.length === 0) return yield* reject("conflict", "Already watching")
      return { result: { userId: input.userId }, changes: [change(watcherScopeWhere(ref), "watcher.added", input.scopeId, { scopeType: input.scopeType, userId: input.userId }, by)] }
    }),
  removeWatcher: (input: ScopeInput & { readonly userId: string }, by: string, id: string): Result<unknown> =>
    Effect.gen(function* () {
      const ref = yield* scopeRef(owner, input, id)
      const removed = yield* query(`DELETE FROM pm_watchers WHERE scope_type = $1 AND scope_id = $2 AND user_id = $3 RETURNING user_id`, [input.scopeType, input.scopeId, input.userId])
      if (removed.length === 0) return yield* reject("not_found", "Not watching")
      return { result: undefined, changes: [change(watcherScopeWhere(ref), "watcher.removed", input.scopeId, { scopeType: input.scopeType, userId: input.userId }, by)] }
    })
})

/** Watchers of a space, folder, list or task, oldest first. */
export const watchersOf = (scopeType: string, scopeId: string) =>
  Effect.map(
    query<{ userId: string; addedAt: string }>(`SELECT user_id AS "userId", added_at AS "addedAt" FROM pm_watchers WHERE scope_type = $1 AND scope_id = $2 ORDER BY added_at, user_id`, [scopeType, scopeId]),
    (rows) => rows
  )
