/** Request and response examples of the operations in Sprints.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { exampleIds as ids, at0 } from "./WorkAccess.ts"
import { exampleTask } from "./WorkExamples.ts"

/** Example ids of the planning tags (sprints, views, filters, dashboards). */
export const planningIds = {
  sprint: "8e9f0a1b-2c3d-4e4f-9a5b-6c7d8e9f0a1b",
  sprint2: "8e9f0a1b-2c3d-4e4f-9a5b-6c7d8e9f0a1c",
  sprintGroup: "9f0a1b2c-3d4e-4f5a-8b6c-7d8e9f0a1b2c",
  team: "1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e",
  view: "a0b1c2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d",
  filter: "b1c2d3e4-f5a6-4b7c-9d8e-0f1a2b3c4d5e",
  dashboard: "c2d3e4f5-a6b7-4c8d-8e9f-1a2b3c4d5e6f",
  widget: "d3e4f5a6-b7c8-4d9e-9f0a-2b3c4d5e6f7a"
} as const

export const exampleSprint = {
  id: planningIds.sprint,
  workspaceId: ids.workspace,
  spaceId: ids.space,
  sprintGroupId: planningIds.sprintGroup,
  name: "Web 12",
  goal: "Ship the login page",
  status: "active",
  startDate: "2026-11-16T00:00:00.000Z",
  endDate: "2026-11-30T00:00:00.000Z",
  startedAt: "2026-11-16T09:00:00.000Z",
  completedAt: null,
  progress: { tasks: 8, finished: 3, unfinished: 5, estimateMinutes: 2400, finishedMinutes: 720, percent: 37.5 },
  summary: null,
  createdBy: ids.user,
  createdAt: at0,
  updatedAt: at0
}

const exampleSummary = {
  committedTasks: 8,
  committedMinutes: 2400,
  completedTasks: 6,
  completedMinutes: 1800,
  addedDuringSprint: 1,
  removedDuringSprint: 0,
  rolledOver: 3,
  returnedToBacklog: 0,
  nextSprintId: planningIds.sprint2
}

export const sprintsExamples = examplesById({
  createSprint: [
    {
      name: "in a group",
      request: { params: { spaceId: ids.space }, body: { sprintGroupId: planningIds.sprintGroup, goal: "Ship the login page" } },
      response: {
        status: 201,
        body: {
          ...exampleSprint,
          status: "planned",
          startedAt: null,
          progress: { tasks: 0, finished: 0, unfinished: 0, estimateMinutes: 0, finishedMinutes: 0, percent: 0 }
        }
      }
    }
  ],
  listSprints: [
    {
      name: "active",
      request: { params: { spaceId: ids.space }, query: { status: "active" } },
      response: { status: 200, body: { items: [exampleSprint] } }
    }
  ],
  getSprint: [{ name: "get", request: { params: { sprintId: planningIds.sprint } }, response: { status: 200, body: exampleSprint } }],
  updateSprint: [
    {
      name: "extend",
      request: { params: { sprintId: planningIds.sprint }, body: { endDate: "2026-12-02T00:00:00.000Z" } },
      response: { status: 200, body: { ...exampleSprint, endDate: "2026-12-02T00:00:00.000Z" } }
    }
  ],
  deleteSprint: [{ name: "delete", request: { params: { sprintId: planningIds.sprint2 } }, response: { status: 204 } }],
  listSprintTasks: [
    {
      name: "tasks",
      request: { params: { sprintId: planningIds.sprint } },
      response: {
        status: 200,
        body: { items: [{ addedAt: at0, carriedFromSprintId: null, outcome: null, task: exampleTask }], total: 1, offset: 0, limit: 50 }
      }
    }
  ],
  addSprintTasks: [
    {
      name: "plan",
      request: { params: { sprintId: planningIds.sprint }, body: { taskIds: [ids.task, ids.task2] } },
      response: { status: 200, body: { added: [ids.task, ids.task2], moved: [], alreadyPlanned: [], sprint: exampleSprint } }
    }
  ],
  removeSprintTask: [
    { name: "remove", request: { params: { sprintId: planningIds.sprint, taskId: ids.task } }, response: { status: 204 } }
  ],
  startSprint: [{ name: "start", request: { params: { sprintId: planningIds.sprint } }, response: { status: 200, body: exampleSprint } }],
  completeSprint: [
    {
      name: "complete",
      request: { params: { sprintId: planningIds.sprint }, body: {} },
      response: {
        status: 200,
        body: {
          sprint: { ...exampleSprint, status: "completed", completedAt: "2026-11-30T09:00:00.000Z", summary: exampleSummary },
          nextSprint: { ...exampleSprint, id: planningIds.sprint2, name: "Web 13", status: "planned", startedAt: null }
        }
      }
    }
  ],
  listSprintBacklog: [
    {
      name: "backlog",
      request: { params: { spaceId: ids.space } },
      response: { status: 200, body: { items: [exampleTask], total: 1, offset: 0, limit: 50 } }
    }
  ]
})
