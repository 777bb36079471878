/**
 * pm tag "Sprint Groups" (4): series of sprints in a space (e.g. one team's
 * cadence) with the length new sprints of the series get, and whether
 * completing a sprint creates the next one. Writes go through the space's
 * planning actor.
 */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { PmSprints } from "../../actors/pm/PlanningActors.ts"
import { SprintGroupInput, SprintGroupPatch } from "../../actors/pm/SprintCommands.ts"
import { listSprintGroups, SprintGroup } from "../../actors/pm/SprintRecords.ts"
import { send } from "../../actors/pm/WorkActor.ts"
import { Items } from "../../actors/pm/WorkRecords.ts"
import { tagGroup } from "../Operation.ts"
import { onSprintGroup } from "./Sprints.ts"
import { onSpace, orDieSql } from "./WorkAccess.ts"
import { sprintGroupsExamples } from "./SprintGroups.examples.ts"

const { operation } = tagGroup("pm", "Sprint Groups", sprintGroupsExamples)

export const sprintGroupsOperations = [
  operation({
    operationId: "createSprintGroup",
    method: "POST",
    path: "/v1/spaces/{spaceId}/sprint-groups",
    summary: "Create a sprint group: a series of sprints with a default length (names are unique per space)",
    auth: "both",
    scopes: ["tasks:write"],
    params: Schema.Struct({ spaceId: Id }),
    body: SprintGroupInput,
    responses: { 201: { description: "Created", schema: SprintGroup }, 409: { description: "A group of that name exists in the space" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onSpace(context, params.spaceId, "member")
        return yield* send(PmSprints, params.spaceId, "createSprintGroup", caller.userId, body)
      })
  }),
  operation({
    operationId: "listSprintGroups",
    method: "GET",
    path: "/v1/spaces/{spaceId}/sprint-groups",
    summary: "A space's sprint groups with their sprint counts and running sprint",
    auth: "both",
    scopes: ["tasks:read"],
    params: Schema.Struct({ spaceId: Id }),
    responses: { 200: { description: "Sprint groups", schema: Items(SprintGroup) } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* onSpace(context, params.spaceId)
        return { items: yield* orDieSql(listSprintGroups(params.spaceId)) }
      })
  }),
  operation({
    operationId: "updateSprintGroup",
    method: "PATCH",
    path: "/v1/sprint-groups/{sprintGroupId}",
    summary: "Rename a sprint group or change its default length, auto-creation or team",
    auth: "both",
    scopes: ["tasks:write"],
    params: Schema.Struct({ sprintGroupId: Id }),
    body: SprintGroupPatch,
    responses: { 200: { description: "Updated", schema: SprintGroup }, 409: { description: "A group of that name exists in the space" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller, group } = yield* onSprintGroup(context, params.sprintGroupId, "member")
        return yield* send(PmSprints, group.spaceId, "updateSprintGroup", caller.userId, { sprintGroupId: params.sprintGroupId, ...body })
      })
  }),
  operation({
    operationId: "deleteSprintGroup",
    method: "DELETE",
    path: "/v1/sprint-groups/{sprintGroupId}",
    summary: "Delete a sprint group; its sprints stay in the space, outside any group",
    description: "Refused (409) while one of its sprints is active.",
    auth: "both",
    scopes: ["tasks:write"],
    params: Schema.Struct({ sprintGroupId: Id }),
    responses: { 204: { description: "Deleted" }, 409: { description: "A sprint of the group is active" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { caller, group } = yield* onSprintGroup(context, params.sprintGroupId, "member")
        yield* send(PmSprints, group.spaceId, "deleteSprintGroup", caller.userId, { sprintGroupId: params.sprintGroupId })
      })
  })
]
