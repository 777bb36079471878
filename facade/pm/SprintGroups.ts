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
import { operation } from "../Operation.ts"
import { onSprintGroup, planningIds } from "./Sprints.ts"
import { at0, exampleIds as ids, onSpace, orDieSql } from "./WorkAccess.ts"

const tag = "Sprint Groups"
const service = "pm"

const exampleGroup = {
  id: planningIds.sprintGroup,
  workspaceId: ids.workspace,
  spaceId: ids.space,
  teamId: planningIds.team,
  name: "Web",
  description: "Two-week sprints of the web team",
  defaultLengthDays: 14,
  autoCreateNext: true,
  sprints: { planned: 1, active: 1, completed: 11 },
  activeSprintId: planningIds.sprint,
  createdBy: ids.user,
  createdAt: at0,
  updatedAt: at0
}

export const sprintGroupsOperations = [
  operation({
    service,
    tag,
    operationId: "createSprintGroup",
    method: "POST",
    path: "/v1/spaces/{spaceId}/sprint-groups",
    summary: "Create a sprint group: a series of sprints with a default length (names are unique per space)",
    auth: "both",
    scopes: ["tasks:write"],
    params: Schema.Struct({ spaceId: Id }),
    body: SprintGroupInput,
    responses: { 201: { description: "Created", schema: SprintGroup }, 409: { description: "A group of that name exists in the space" } },
    examples: [
      {
        name: "create",
        request: { params: { spaceId: ids.space }, body: { name: "Web", defaultLengthDays: 14, teamId: planningIds.team } },
        response: { status: 201, body: { ...exampleGroup, sprints: { planned: 0, active: 0, completed: 0 }, activeSprintId: null } }
      }
    ],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onSpace(context, params.spaceId, "member")
        return yield* send(PmSprints, params.spaceId, "createSprintGroup", caller.userId, body)
      })
  }),
  operation({
    service,
    tag,
    operationId: "listSprintGroups",
    method: "GET",
    path: "/v1/spaces/{spaceId}/sprint-groups",
    summary: "A space's sprint groups with their sprint counts and running sprint",
    auth: "both",
    scopes: ["tasks:read"],
    params: Schema.Struct({ spaceId: Id }),
    responses: { 200: { description: "Sprint groups", schema: Items(SprintGroup) } },
    examples: [{ name: "list", request: { params: { spaceId: ids.space } }, response: { status: 200, body: { items: [exampleGroup] } } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* onSpace(context, params.spaceId)
        return { items: yield* orDieSql(listSprintGroups(params.spaceId)) }
      })
  }),
  operation({
    service,
    tag,
    operationId: "updateSprintGroup",
    method: "PATCH",
    path: "/v1/sprint-groups/{sprintGroupId}",
    summary: "Rename a sprint group or change its default length, auto-creation or team",
    auth: "both",
    scopes: ["tasks:write"],
    params: Schema.Struct({ sprintGroupId: Id }),
    body: SprintGroupPatch,
    responses: { 200: { description: "Updated", schema: SprintGroup }, 409: { description: "A group of that name exists in the space" } },
    examples: [
      {
        name: "length",
        request: { params: { sprintGroupId: planningIds.sprintGroup }, body: { defaultLengthDays: 7 } },
        response: { status: 200, body: { ...exampleGroup, defaultLengthDays: 7 } }
      }
    ],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller, group } = yield* onSprintGroup(context, params.sprintGroupId, "member")
        return yield* send(PmSprints, group.spaceId, "updateSprintGroup", caller.userId, { sprintGroupId: params.sprintGroupId, ...body })
      })
  }),
  operation({
    service,
    tag,
    operationId: "deleteSprintGroup",
    method: "DELETE",
    path: "/v1/sprint-groups/{sprintGroupId}",
    summary: "Delete a sprint group; its sprints stay in the space, outside any group",
    description: "Refused (409) while one of its sprints is active.",
    auth: "both",
    scopes: ["tasks:write"],
    params: Schema.Struct({ sprintGroupId: Id }),
    responses: { 204: { description: "Deleted" }, 409: { description: "A sprint of the group is active" } },
    examples: [{ name: "delete", request: { params: { sprintGroupId: planningIds.sprintGroup } }, response: { status: 204 } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { caller, group } = yield* onSprintGroup(context, params.sprintGroupId, "member")
        yield* send(PmSprints, group.spaceId, "deleteSprintGroup", caller.userId, { sprintGroupId: params.sprintGroupId })
      })
  })
]
