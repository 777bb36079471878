/** Request and response examples of the operations in SprintGroups.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { planningIds } from "./Sprints.ts"
import { exampleIds as ids, at0 } from "./WorkAccess.ts"

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

export const sprintGroupsExamples = examplesById({
  createSprintGroup: [
    {
      name: "create",
      request: { params: { spaceId: ids.space }, body: { name: "Web", defaultLengthDays: 14, teamId: planningIds.team } },
      response: { status: 201, body: { ...exampleGroup, sprints: { planned: 0, active: 0, completed: 0 }, activeSprintId: null } }
    }
  ],
  listSprintGroups: [
    { name: "list", request: { params: { spaceId: ids.space } }, response: { status: 200, body: { items: [exampleGroup] } } }
  ],
  updateSprintGroup: [
    {
      name: "length",
      request: { params: { sprintGroupId: planningIds.sprintGroup }, body: { defaultLengthDays: 7 } },
      response: { status: 200, body: { ...exampleGroup, defaultLengthDays: 7 } }
    }
  ],
  deleteSprintGroup: [{ name: "delete", request: { params: { sprintGroupId: planningIds.sprintGroup } }, response: { status: 204 } }]
})
