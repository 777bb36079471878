/**
 * pm tag "Filters" (3): saved filters of a list — named task criteria kept
 * private or shared with the list, each with the live number of tasks it
 * matches and the query string that applies it to the list's tasks. Writes
 * go through the workspace's views actor.
 */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { PmViews } from "../../actors/pm/PlanningActors.ts"
import { SavedFilter, SavedFilterInput, savedFiltersOf } from "../../actors/pm/SavedFilters.ts"
import { send } from "../../actors/pm/WorkActor.ts"
import { Items } from "../../actors/pm/WorkRecords.ts"
import { tagGroup } from "../Operation.ts"

import { onList, orDieSql } from "./WorkAccess.ts"
import { filtersExamples } from "./Filters.examples.ts"
const ListParams = Schema.Struct({ listId: Id })

const { operation } = tagGroup("pm", "Filters", filtersExamples)

export const filtersOperations = [
  operation({
    operationId: "listSavedFilters",
    method: "GET",
    path: "/v1/lists/{listId}/saved-filters",
    summary: "A list's saved filters the caller sees (shared ones and their own), with how many tasks each matches now",
    auth: "both",
    scopes: ["tasks:read"],
    params: ListParams,
    responses: { 200: { description: "Saved filters", schema: Items(SavedFilter) } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* onList(context, params.listId)
        return { items: yield* orDieSql(savedFiltersOf(params.listId, caller.viewer)) }
      })
  }),
  operation({
    operationId: "createSavedFilter",
    method: "POST",
    path: "/v1/lists/{listId}/saved-filters",
    summary: "Save task criteria under a name for a list (private unless shared)",
    auth: "both",
    scopes: ["tasks:write"],
    params: ListParams,
    body: SavedFilterInput,
    responses: { 201: { description: "Saved", schema: SavedFilter }, 409: { description: "A filter of that name exists on the list" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onList(context, params.listId, "member")
        return yield* send(PmViews, caller.at.workspaceId, "createSavedFilter", caller.userId, {
          listId: params.listId,
          ...body,
          admin: caller.admin
        })
      })
  }),
  operation({
    operationId: "deleteSavedFilter",
    method: "DELETE",
    path: "/v1/lists/{listId}/saved-filters/{filterId}",
    summary: "Delete a saved filter (its creator, or a workspace admin for a shared one)",
    auth: "both",
    scopes: ["tasks:write"],
    params: Schema.Struct({ listId: Id, filterId: Id }),
    responses: { 204: { description: "Deleted" }, 403: { description: "Neither its creator nor an admin" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* onList(context, params.listId, "member")
        yield* send(PmViews, caller.at.workspaceId, "deleteSavedFilter", caller.userId, {
          listId: params.listId,
          filterId: params.filterId,
          admin: caller.admin
        })
      })
  })
]
