/**
 * Property management shared by the Spaces, Folders and Lists tags — the
 * same operations on each level, declared once here and instantiated in each
 * tag's file: statuses (effective, inherited downward, copy-on-write),
 * custom field definitions with their options, and watchers.
 */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { availableFields, FieldInput, FieldPatch, OptionInput } from "../../actors/pm/CustomFields.ts"
import type { Located } from "../../actors/pm/Locate.ts"
import { userRefs } from "../../actors/pm/Members.ts"
import {
  FieldOrder,
  OptionOrder,
  OptionPatch,
  type propertyCommands,
  StatusOrder,
  StatusPatch,
  StatusSet,
  watchersOf
} from "../../actors/pm/Properties.ts"
import { effectiveStatuses, listIdsIn, listsUsing, StatusInput, taskCountsByStatus, type Chain } from "../../actors/pm/Statuses.ts"
import { type InputOf, read, send } from "../../actors/pm/WorkActor.ts"
import { PmList, PmSpace } from "../../actors/pm/WorkActors.ts"
import { CustomField, EffectiveStatuses, Items, type ScopeType, Status, StatusType, UserRef } from "../../actors/pm/WorkRecords.ts"
import { Name } from "../../actors/Fields.ts"
import { reject } from "../../runtime/Rejection.ts"
import { type AnyOperation, type RequestContext, tagGroup } from "../Operation.ts"
import { at0, exampleIds as ids, onScope, orDieSql, type CallerAt } from "./WorkAccess.ts"
import { exampleField, exampleStatuses } from "./WorkExamples.ts"

export interface ScopeKind {
  readonly tag: "Spaces" | "Folders" | "Lists"
  readonly type: ScopeType
  readonly noun: "Space" | "Folder" | "List"
  readonly param: "spaceId" | "folderId" | "listId"
  readonly exampleId: string
}

const ResetStatuses = Schema.Struct({ ...EffectiveStatuses.fields, tasksMoved: Schema.Number }).annotate({ identifier: "ResetStatuses" })
export const spaceScope: ScopeKind = { tag: "Spaces", type: "space", noun: "Space", param: "spaceId", exampleId: ids.space }
export const folderScope: ScopeKind = { tag: "Folders", type: "folder", noun: "Folder", param: "folderId", exampleId: ids.folder }
export const listScope: ScopeKind = { tag: "Lists", type: "list", noun: "List", param: "listId", exampleId: ids.list }

const scopes = ["tasks:read"]
const writes = ["tasks:write"]

type Commands = ReturnType<typeof propertyCommands>

/** Runs a property command on the actor that owns the scope (the space for spaces and folders, the list for lists). */
const sendProperty = <K extends keyof Commands & string>(
  scope: ScopeKind,
  located: Located,
  command: K,
  by: string,
  input: InputOf<Commands[K]>
) =>
  // Both kinds run the property commands; typed by that table alone, the command and its input check.
  send<Commands, K>(scope.type === "list" ? PmList : PmSpace, scope.type === "list" ? located.listId! : located.spaceId, command, by, input)

export const chainOf = (located: Located): Chain => ({
  workspaceId: located.workspaceId,
  spaceId: located.spaceId,
  folderId: located.folderId,
  listId: located.listId
})
/** A list's workflow is in its actor's memory; a folder's or space's is read from SQL. */
const statusesAt = (located: Located) =>
  located.listId !== null
    ? Effect.map(read(PmList, located.listId, "locate", {}), (list) => list.statuses)
    : orDieSql(effectiveStatuses(chainOf(located)))
const fieldsAt = (located: Located) =>
  located.listId !== null
    ? Effect.map(read(PmList, located.listId, "locate", {}), (list) => list.customFields)
    : orDieSql(availableFields(chainOf(located)))

const scopeIdOf = (scope: ScopeKind, located: Located) =>
  scope.type === "space" ? located.spaceId : scope.type === "folder" ? located.folderId! : located.listId!

const AvailableField = Schema.Struct({ ...CustomField.fields, inherited: Schema.Boolean }).annotate({ identifier: "AvailableCustomField" })

const StatusUsage = Schema.Struct({
  items: Schema.Array(Schema.Struct({ statusId: Id, name: Schema.String, type: StatusType, taskCount: Schema.Number })),
  listIds: Schema.Array(Id)
}).annotate({ identifier: "StatusUsage" })

const Watcher = Schema.Struct({ user: UserRef, addedAt: Schema.String }).annotate({ identifier: "Watcher" })

/** Operations on a scope's statuses. `withReset` adds "go back to inheriting" (folders and lists). */
export const statusOperations = (scope: ScopeKind, withReset: boolean): Array<AnyOperation> => {
  const { tag, noun, param } = scope
  const { operation } = tagGroup("pm", tag)
  const base = `/v1/${scope.type === "space" ? "spaces" : scope.type === "folder" ? "folders" : "lists"}/{${param}}`
  const Params = Schema.Struct({ [param]: Id } as Record<typeof param, typeof Id>)
  const StatusParams = Schema.Struct({ [param]: Id, statusId: Id } as Record<typeof param | "statusId", typeof Id>)
  const params = { [param]: scope.exampleId }
  const idOf = (p: Record<string, string>) => p[param]!
  const on = (context: RequestContext, p: Record<string, string>, minimum: "viewer" | "member" | "admin") =>
    onScope(context, scope.type, idOf(p), minimum)
  const input = (caller: CallerAt) => ({ scopeType: scope.type, scopeId: scopeIdOf(scope, caller.at) })
  const inheritNote =
    scope.type === "space"
      ? "A space always defines its own statuses; its folders and lists inherit them unless they define their own."
      : `Without its own statuses a ${scope.type} inherits them (${scope.type === "list" ? "from its folder, then its space" : "from its space"}); editing inherited statuses here first copies them to this ${scope.type}.`
  const ops: Array<AnyOperation> = [
    operation({
      operationId: `list${noun}Statuses`,
      method: "GET",
      path: `${base}/statuses`,
      summary: `The statuses that apply to a ${scope.type}, and where they come from`,
      description: inheritNote,
      auth: "both",
      scopes,
      params: Params,
      responses: { 200: { description: "Effective statuses", schema: EffectiveStatuses } },
      examples: [
        {
          name: "statuses",
          request: { params },
          response: {
            status: 200,
            body: { inheritedFrom: "space", sourceId: ids.space, own: scope.type === "space", items: exampleStatuses }
          }
        }
      ],
      handler: ({ params: p }, context) =>
        Effect.gen(function* () {
          const caller = yield* on(context, p, "viewer")
          return yield* statusesAt(caller.at)
        })
    }),
    operation({
      operationId: `get${noun}Status`,
      method: "GET",
      path: `${base}/statuses/{statusId}`,
      summary: `One status of a ${scope.type}'s workflow`,
      auth: "both",
      scopes,
      params: StatusParams,
      responses: { 200: { description: "The status", schema: Status } },
      examples: [
        { name: "status", request: { params: { ...params, statusId: ids.status } }, response: { status: 200, body: exampleStatuses[0] } }
      ],
      handler: ({ params: p }, context) =>
        Effect.gen(function* () {
          const caller = yield* on(context, p, "viewer")
          const effective = yield* statusesAt(caller.at)
          const status = effective.items.find((s) => s.id === p.statusId)
          return status ?? (yield* reject("not_found", "No such status here"))
        })
    }),
    operation({
      operationId: `get${noun}StatusUsage`,
      method: "GET",
      path: `${base}/statuses/usage`,
      summary: `How many tasks are in each status of a ${scope.type}'s workflow`,
      auth: "both",
      scopes,
      params: Params,
      responses: { 200: { description: "Task counts per status", schema: StatusUsage } },
      examples: [
        {
          name: "usage",
          request: { params },
          response: {
            status: 200,
            body: { items: [{ statusId: ids.status, name: "to do", type: "open", taskCount: 4 }], listIds: [ids.list] }
          }
        }
      ],
      handler: ({ params: p }, context) =>
        Effect.gen(function* () {
          const caller = yield* on(context, p, "viewer")
          const effective = yield* statusesAt(caller.at)
          const own = effective.own || scope.type !== "space"
          const listIds = yield* orDieSql(
            listsUsing(own ? scope.type : effective.inheritedFrom, own ? scopeIdOf(scope, caller.at) : effective.sourceId)
          )
          const inScope =
            scope.type === "space"
              ? listIds
              : yield* orDieSql(
                  Effect.map(listIdsIn(scope.type, scopeIdOf(scope, caller.at)), (ids) => ids.filter((id) => listIds.includes(id)))
                )
          const counts = yield* orDieSql(taskCountsByStatus(inScope))
          return {
            items: effective.items.map((s) => ({
              statusId: s.id,
              name: s.name,
              type: s.type,
              taskCount: counts.find((c) => c.status === s.name.toLowerCase())?.count ?? 0
            })),
            listIds: inScope
          }
        })
    }),
    operation({
      operationId: `create${noun}Status`,
      method: "POST",
      path: `${base}/statuses`,
      summary: `Add a status to a ${scope.type}'s workflow`,
      description: inheritNote,
      auth: "both",
      scopes: writes,
      params: Params,
      body: StatusInput,
      responses: { 201: { description: "Created", schema: Status }, 409: { description: "A status of that name exists" } },
      examples: [
        {
          name: "add-review",
          request: { params, body: { name: "in review", type: "active" } },
          response: { status: 201, body: { id: ids.status, name: "in review", type: "active", color: "#5f55ee", position: 5 } }
        }
      ],
      handler: ({ params: p, body }, context) =>
        Effect.gen(function* () {
          const caller = yield* on(context, p, "member")
          return yield* sendProperty(scope, caller.at, "createStatus", caller.userId, { ...input(caller), ...body })
        })
    }),
    operation({
      operationId: `update${noun}Status`,
      method: "PATCH",
      path: `${base}/statuses/{statusId}`,
      summary: `Rename, recolor or retype a status of a ${scope.type}`,
      description: "Tasks in the status follow a rename; a workflow keeps at least one open and one done or closed status.",
      auth: "both",
      scopes: writes,
      params: StatusParams,
      body: StatusPatch,
      responses: { 200: { description: "Updated", schema: Status } },
      examples: [
        {
          name: "rename",
          request: { params: { ...params, statusId: ids.status }, body: { name: "backlog" } },
          response: { status: 200, body: { ...exampleStatuses[0], name: "backlog" } }
        }
      ],
      handler: ({ params: p, body }, context) =>
        Effect.gen(function* () {
          const caller = yield* on(context, p, "member")
          return yield* sendProperty(scope, caller.at, "updateStatus", caller.userId, { ...input(caller), statusId: p.statusId, ...body })
        })
    }),
    operation({
      operationId: `delete${noun}Status`,
      method: "DELETE",
      path: `${base}/statuses/{statusId}`,
      summary: `Remove a status from a ${scope.type}'s workflow`,
      description:
        "Its tasks move to `moveTo` when given, else to the first remaining status of the same type, else to the first open one.",
      auth: "both",
      scopes: writes,
      params: StatusParams,
      query: Schema.Struct({ moveTo: Schema.optionalKey(Name(64)) }),
      responses: {
        200: { description: "Deleted; how many tasks moved", schema: Schema.Struct({ deleted: Id, tasksMoved: Schema.Number }) }
      },
      examples: [
        {
          name: "delete",
          request: { params: { ...params, statusId: ids.status }, query: { moveTo: "in progress" } },
          response: { status: 200, body: { deleted: ids.status, tasksMoved: 3 } }
        }
      ],
      handler: ({ params: p, query: q }, context) =>
        Effect.gen(function* () {
          const caller = yield* on(context, p, "member")
          return yield* sendProperty(scope, caller.at, "deleteStatus", caller.userId, {
            ...input(caller),
            statusId: p.statusId,
            ...(q.moveTo ? { moveTo: q.moveTo } : {})
          })
        })
    }),
    operation({
      operationId: `reorder${noun}Statuses`,
      method: "PUT",
      path: `${base}/statuses/order`,
      summary: `Reorder a ${scope.type}'s statuses`,
      auth: "both",
      scopes: writes,
      params: Params,
      body: StatusOrder,
      responses: { 200: { description: "The statuses in their new order", schema: Items(Status) } },
      examples: [
        {
          name: "reorder",
          request: { params, body: { statusIds: exampleStatuses.map((s) => s.id).reverse() } },
          response: { status: 200, body: { items: [...exampleStatuses].reverse() } }
        }
      ],
      handler: ({ params: p, body }, context) =>
        Effect.gen(function* () {
          const caller = yield* on(context, p, "member")
          return yield* sendProperty(scope, caller.at, "reorderStatuses", caller.userId, { ...input(caller), statusIds: body.statusIds })
        })
    }),
    operation({
      operationId: `replace${noun}Statuses`,
      method: "PUT",
      path: `${base}/statuses`,
      summary: `Set a ${scope.type}'s whole workflow`,
      description: "Tasks in statuses that disappear move to `mapping[old name]` when given, else to the first status of the same type.",
      auth: "both",
      scopes: writes,
      params: Params,
      body: StatusSet,
      responses: {
        200: { description: "The new workflow", schema: Schema.Struct({ items: Schema.Array(Status), tasksMoved: Schema.Number }) }
      },
      examples: [
        {
          name: "kanban",
          request: {
            params,
            body: {
              statuses: [
                { name: "backlog", type: "open" },
                { name: "doing", type: "active" },
                { name: "shipped", type: "closed" }
              ],
              mapping: { "in progress": "doing" }
            }
          },
          response: { status: 200, body: { items: exampleStatuses.slice(0, 3), tasksMoved: 2 } }
        }
      ],
      handler: ({ params: p, body }, context) =>
        Effect.gen(function* () {
          const caller = yield* on(context, p, "member")
          return yield* sendProperty(scope, caller.at, "replaceStatuses", caller.userId, {
            ...input(caller),
            statuses: body.statuses,
            ...(body.mapping ? { mapping: body.mapping } : {})
          })
        })
    })
  ]
  if (withReset) {
    ops.push(
      operation({
        operationId: `reset${noun}Statuses`,
        method: "DELETE",
        path: `${base}/statuses`,
        summary: `Drop a ${scope.type}'s own statuses and inherit its parent's again`,
        description: "Tasks in statuses the inherited workflow lacks move to the first status of the same type.",
        auth: "both",
        scopes: writes,
        params: Params,
        responses: {
          200: { description: "The inherited statuses now in effect, and how many tasks moved to another status", schema: ResetStatuses }
        },
        examples: [
          {
            name: "reset",
            request: { params },
            response: {
              status: 200,
              body: { inheritedFrom: "space", sourceId: ids.space, own: false, items: exampleStatuses, tasksMoved: 0 }
            }
          }
        ],
        handler: ({ params: p }, context) =>
          Effect.gen(function* () {
            const caller = yield* on(context, p, "member")
            return yield* sendProperty(scope, caller.at, "resetStatuses", caller.userId, input(caller))
          })
      })
    )
  }
  return ops
}

/** Operations on a scope's custom field definitions. */
export const customFieldOperations = (scope: ScopeKind): Array<AnyOperation> => {
  const { tag, noun, param } = scope
  const { operation } = tagGroup("pm", tag)
  const base = `/v1/${scope.type === "space" ? "spaces" : scope.type === "folder" ? "folders" : "lists"}/{${param}}/custom-fields`
  const Params = Schema.Struct({ [param]: Id } as Record<typeof param, typeof Id>)
  const FieldParams = Schema.Struct({ [param]: Id, fieldId: Id } as Record<typeof param | "fieldId", typeof Id>)
  const OptionParams = Schema.Struct({ [param]: Id, fieldId: Id, optionId: Id } as Record<typeof param | "fieldId" | "optionId", typeof Id>)
  const params = { [param]: scope.exampleId }
  const fieldParams = { ...params, fieldId: ids.field }
  const field = { ...exampleField, scopeType: scope.type, scopeId: scope.exampleId }
  const on = (context: RequestContext, p: Record<string, string>, minimum: "viewer" | "member" | "admin") =>
    onScope(context, scope.type, p[param]!, minimum)
  const input = (caller: CallerAt) => ({ scopeType: scope.type, scopeId: scopeIdOf(scope, caller.at) })
  return [
    operation({
      operationId: `list${noun}CustomFields`,
      method: "GET",
      path: base,
      summary: `Custom fields available on a ${scope.type}: its own and those inherited from above`,
      auth: "both",
      scopes,
      params: Params,
      responses: { 200: { description: "Fields, outermost level first", schema: Items(AvailableField) } },
      examples: [
        {
          name: "fields",
          request: { params },
          response: { status: 200, body: { items: [{ ...exampleField, inherited: scope.type !== "space" }] } }
        }
      ],
      handler: ({ params: p }, context) =>
        Effect.gen(function* () {
          const caller = yield* on(context, p, "viewer")
          const fields = yield* fieldsAt(caller.at)
          const own = scopeIdOf(scope, caller.at)
          return { items: fields.map((f) => ({ ...f, inherited: f.scopeId !== own })) }
        })
    }),
    operation({
      operationId: `get${noun}CustomField`,
      method: "GET",
      path: `${base}/{fieldId}`,
      summary: `One custom field available on a ${scope.type}`,
      auth: "both",
      scopes,
      params: FieldParams,
      responses: { 200: { description: "The field", schema: AvailableField } },
      examples: [{ name: "field", request: { params: fieldParams }, response: { status: 200, body: { ...field, inherited: false } } }],
      handler: ({ params: p }, context) =>
        Effect.gen(function* () {
          const caller = yield* on(context, p, "viewer")
          const found = (yield* fieldsAt(caller.at)).find((f) => f.id === p.fieldId)
          if (found === undefined) return yield* reject("not_found", "No such custom field here")
          return { ...found, inherited: found.scopeId !== scopeIdOf(scope, caller.at) }
        })
    }),
    operation({
      operationId: `create${noun}CustomField`,
      method: "POST",
      path: base,
      summary: `Define a custom field on a ${scope.type}`,
      description:
        "Types: text, number, date, dropdown, labels, checkbox, email, url, currency, phone, rating, users. Options apply to dropdown and labels; currency and precision to currency; min and max to number and currency; max (1..10) to rating.",
      auth: "both",
      scopes: writes,
      params: Params,
      body: FieldInput,
      responses: {
        201: { description: "Created", schema: CustomField },
        409: { description: "A field of that name applies here already" }
      },
      examples: [
        {
          name: "dropdown",
          request: { params, body: { name: "Environment", type: "dropdown", options: [{ name: "production", color: "#e5484d" }] } },
          response: { status: 201, body: field }
        }
      ],
      handler: ({ params: p, body }, context) =>
        Effect.gen(function* () {
          const caller = yield* on(context, p, "member")
          return yield* sendProperty(scope, caller.at, "createField", caller.userId, { ...input(caller), ...body })
        })
    }),
    operation({
      operationId: `update${noun}CustomField`,
      method: "PATCH",
      path: `${base}/{fieldId}`,
      summary: `Change a custom field defined on this ${scope.type}`,
      description: "The type cannot change; null clears min or max.",
      auth: "both",
      scopes: writes,
      params: FieldParams,
      body: FieldPatch,
      responses: { 200: { description: "Updated", schema: CustomField } },
      examples: [
        {
          name: "rename",
          request: { params: fieldParams, body: { name: "Env" } },
          response: { status: 200, body: { ...field, name: "Env" } }
        }
      ],
      handler: ({ params: p, body }, context) =>
        Effect.gen(function* () {
          const caller = yield* on(context, p, "member")
          return yield* sendProperty(scope, caller.at, "updateField", caller.userId, { ...input(caller), fieldId: p.fieldId, ...body })
        })
    }),
    operation({
      operationId: `delete${noun}CustomField`,
      method: "DELETE",
      path: `${base}/{fieldId}`,
      summary: `Delete a custom field defined on this ${scope.type} and every value of it (admin)`,
      auth: "both",
      scopes: writes,
      params: FieldParams,
      responses: { 204: { description: "Deleted" } },
      examples: [{ name: "delete", request: { params: fieldParams }, response: { status: 204 } }],
      handler: ({ params: p }, context) =>
        Effect.gen(function* () {
          const caller = yield* on(context, p, "admin")
          yield* sendProperty(scope, caller.at, "deleteField", caller.userId, { ...input(caller), fieldId: p.fieldId })
        })
    }),
    operation({
      operationId: `reorder${noun}CustomFields`,
      method: "PUT",
      path: `${base}/order`,
      summary: `Reorder the custom fields defined on this ${scope.type}`,
      auth: "both",
      scopes: writes,
      params: Params,
      body: FieldOrder,
      responses: { 200: { description: "The fields in their new order", schema: Items(CustomField) } },
      examples: [
        { name: "reorder", request: { params, body: { fieldIds: [ids.field] } }, response: { status: 200, body: { items: [field] } } }
      ],
      handler: ({ params: p, body }, context) =>
        Effect.gen(function* () {
          const caller = yield* on(context, p, "member")
          return yield* sendProperty(scope, caller.at, "reorderFields", caller.userId, { ...input(caller), fieldIds: body.fieldIds })
        })
    }),
    operation({
      operationId: `add${noun}CustomFieldOption`,
      method: "POST",
      path: `${base}/{fieldId}/options`,
      summary: "Add an option to a dropdown or labels field",
      auth: "both",
      scopes: writes,
      params: FieldParams,
      body: OptionInput,
      responses: { 201: { description: "The field with the new option", schema: CustomField } },
      examples: [
        { name: "add-option", request: { params: fieldParams, body: { name: "staging" } }, response: { status: 201, body: field } }
      ],
      handler: ({ params: p, body }, context) =>
        Effect.gen(function* () {
          const caller = yield* on(context, p, "member")
          return yield* sendProperty(scope, caller.at, "addFieldOption", caller.userId, { ...input(caller), fieldId: p.fieldId, ...body })
        })
    }),
    operation({
      operationId: `update${noun}CustomFieldOption`,
      method: "PATCH",
      path: `${base}/{fieldId}/options/{optionId}`,
      summary: "Rename or recolor an option of a dropdown or labels field",
      auth: "both",
      scopes: writes,
      params: OptionParams,
      body: OptionPatch,
      responses: { 200: { description: "The field", schema: CustomField } },
      examples: [
        {
          name: "rename-option",
          request: { params: { ...fieldParams, optionId: ids.option }, body: { name: "prod" } },
          response: { status: 200, body: field }
        }
      ],
      handler: ({ params: p, body }, context) =>
        Effect.gen(function* () {
          const caller = yield* on(context, p, "member")
          return yield* sendProperty(scope, caller.at, "updateFieldOption", caller.userId, {
            ...input(caller),
            fieldId: p.fieldId,
            optionId: p.optionId,
            ...body
          })
        })
    }),
    operation({
      operationId: `delete${noun}CustomFieldOption`,
      method: "DELETE",
      path: `${base}/{fieldId}/options/{optionId}`,
      summary: "Remove an option (values that chose it are cleared)",
      auth: "both",
      scopes: writes,
      params: OptionParams,
      responses: { 200: { description: "The field", schema: CustomField } },
      examples: [
        {
          name: "delete-option",
          request: { params: { ...fieldParams, optionId: ids.option } },
          response: { status: 200, body: { ...field, config: { options: [] } } }
        }
      ],
      handler: ({ params: p }, context) =>
        Effect.gen(function* () {
          const caller = yield* on(context, p, "member")
          return yield* sendProperty(scope, caller.at, "deleteFieldOption", caller.userId, {
            ...input(caller),
            fieldId: p.fieldId,
            optionId: p.optionId
          })
        })
    }),
    operation({
      operationId: `reorder${noun}CustomFieldOptions`,
      method: "PUT",
      path: `${base}/{fieldId}/options/order`,
      summary: "Reorder the options of a dropdown or labels field",
      auth: "both",
      scopes: writes,
      params: FieldParams,
      body: OptionOrder,
      responses: { 200: { description: "The field", schema: CustomField } },
      examples: [
        {
          name: "reorder-options",
          request: { params: fieldParams, body: { optionIds: [ids.option] } },
          response: { status: 200, body: field }
        }
      ],
      handler: ({ params: p, body }, context) =>
        Effect.gen(function* () {
          const caller = yield* on(context, p, "member")
          return yield* sendProperty(scope, caller.at, "reorderFieldOptions", caller.userId, {
            ...input(caller),
            fieldId: p.fieldId,
            optionIds: body.optionIds
          })
        })
    })
  ]
}

/** Watchers of a space, folder or list: notified of new tasks inside it. */
export const watcherOperations = (scope: ScopeKind): Array<AnyOperation> => {
  const { tag, noun, param } = scope
  const { operation } = tagGroup("pm", tag)
  const base = `/v1/${scope.type === "space" ? "spaces" : scope.type === "folder" ? "folders" : "lists"}/{${param}}/watchers`
  const Params = Schema.Struct({ [param]: Id } as Record<typeof param, typeof Id>)
  const UserParams = Schema.Struct({ [param]: Id, userId: Id } as Record<typeof param | "userId", typeof Id>)
  const params = { [param]: scope.exampleId }
  const on = (context: RequestContext, p: Record<string, string>, minimum: "viewer" | "member") =>
    onScope(context, scope.type, p[param]!, minimum)
  const input = (caller: CallerAt) => ({ scopeType: scope.type, scopeId: scopeIdOf(scope, caller.at) })
  return [
    operation({
      operationId: `list${noun}Watchers`,
      method: "GET",
      path: base,
      summary: `Who watches a ${scope.type} (notified of new tasks in it)`,
      auth: "both",
      scopes,
      params: Params,
      responses: { 200: { description: "Watchers", schema: Items(Watcher) } },
      examples: [
        {
          name: "watchers",
          request: { params },
          response: { status: 200, body: { items: [{ user: { id: ids.user2, email: "bob@example.com", name: "Bob" }, addedAt: at0 }] } }
        }
      ],
      handler: ({ params: p }, context) =>
        Effect.gen(function* () {
          const caller = yield* on(context, p, "viewer")
          const watchers = yield* orDieSql(watchersOf(scope.type, scopeIdOf(scope, caller.at)))
          const users = yield* orDieSql(userRefs(watchers.map((w) => w.userId)))
          return {
            items: watchers.map((w) => ({ user: users.get(w.userId) ?? { id: w.userId, email: "", name: "" }, addedAt: w.addedAt }))
          }
        })
    }),
    operation({
      operationId: `add${noun}Watcher`,
      method: "POST",
      path: base,
      summary: `Watch a ${scope.type} (yourself unless userId names another member)`,
      auth: "both",
      scopes: writes,
      params: Params,
      body: Schema.Struct({ userId: Schema.optionalKey(Id) }),
      responses: { 201: { description: "Watching", schema: Schema.Struct({ userId: Id }) }, 409: { description: "Already watching" } },
      examples: [{ name: "watch", request: { params, body: {} }, response: { status: 201, body: { userId: ids.user } } }],
      handler: ({ params: p, body }, context) =>
        Effect.gen(function* () {
          const caller = yield* on(context, p, "member")
          return yield* sendProperty(scope, caller.at, "addWatcher", caller.userId, {
            ...input(caller),
            userId: body.userId ?? caller.userId
          })
        })
    }),
    operation({
      operationId: `remove${noun}Watcher`,
      method: "DELETE",
      path: `${base}/{userId}`,
      summary: `Stop someone (or yourself) watching a ${scope.type}`,
      auth: "both",
      scopes: writes,
      params: UserParams,
      responses: { 204: { description: "Removed" } },
      examples: [{ name: "unwatch", request: { params: { ...params, userId: ids.user } }, response: { status: 204 } }],
      handler: ({ params: p }, context) =>
        Effect.gen(function* () {
          const caller = yield* on(context, p, "member")
          yield* sendProperty(scope, caller.at, "removeWatcher", caller.userId, { ...input(caller), userId: p.userId })
        })
    })
  ]
}
