/** Request and response examples of the operations in Dashboard.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { exampleIds as ids, at0 } from "./WorkAccess.ts"
import { planningIds, exampleSprint } from "./Sprints.ts"
import { exampleUser, exampleTask } from "./WorkExamples.ts"

const ws = { workspaceId: ids.workspace }

// ---------------------------------------------------------------------------
// Examples

const exampleWidget = {
  id: planningIds.widget,
  type: "task_count",
  title: "By status",
  config: { groupBy: "status" },
  position: 1,
  width: 6,
  height: 4,
  createdAt: at0,
  updatedAt: at0
}

const exampleDashboard = {
  id: planningIds.dashboard,
  workspaceId: ids.workspace,
  name: "Engineering health",
  description: "",
  scopeType: "space",
  scopeId: ids.space,
  spaceId: ids.space,
  isPrivate: false,
  widgets: [exampleWidget],
  createdBy: ids.user,
  createdAt: at0,
  updatedAt: at0
}

const exampleCounts = {
  groupBy: "status",
  total: 12,
  items: [
    { key: "to do", label: "to do", count: 5, unfinished: 5, estimateMinutes: 600 },
    { key: "in progress", label: "in progress", count: 4, unfinished: 4, estimateMinutes: 900 },
    { key: "done", label: "done", count: 3, unfinished: 0, estimateMinutes: 240 }
  ]
}

const exampleSummary = {
  id: ids.task,
  shortId: "T-42",
  name: "Ship the login page",
  status: "in progress",
  statusType: "active",
  finished: false,
  listId: ids.list
}

export const dashboardExamples = examplesById({
  createDashboard: [
    {
      name: "space health",
      request: {
        params: ws,
        body: {
          name: "Engineering health",
          scopeType: "space",
          scopeId: ids.space,
          widgets: [{ type: "task_count", title: "By status", config: { groupBy: "status" } }]
        }
      },
      response: { status: 201, body: exampleDashboard }
    }
  ],
  listDashboards: [{ name: "list", request: { params: ws }, response: { status: 200, body: { items: [exampleDashboard] } } }],
  getDashboard: [
    { name: "get", request: { params: { dashboardId: planningIds.dashboard } }, response: { status: 200, body: exampleDashboard } }
  ],
  updateDashboard: [
    {
      name: "rename",
      request: { params: { dashboardId: planningIds.dashboard }, body: { name: "Eng health" } },
      response: { status: 200, body: { ...exampleDashboard, name: "Eng health" } }
    }
  ],
  deleteDashboard: [{ name: "delete", request: { params: { dashboardId: planningIds.dashboard } }, response: { status: 204 } }],
  addDashboardWidget: [
    {
      name: "burndown",
      request: {
        params: { dashboardId: planningIds.dashboard },
        body: { type: "burndown", config: { sprintId: planningIds.sprint }, width: 12 }
      },
      response: {
        status: 201,
        body: {
          ...exampleDashboard,
          widgets: [
            exampleWidget,
            {
              ...exampleWidget,
              id: "d3e4f5a6-b7c8-4d9e-9f0a-2b3c4d5e6f7b",
              type: "burndown",
              title: "Sprint burndown",
              config: { sprintId: planningIds.sprint },
              position: 2,
              width: 12
            }
          ]
        }
      }
    }
  ],
  updateDashboardWidget: [
    {
      name: "by priority",
      request: {
        params: { dashboardId: planningIds.dashboard, widgetId: planningIds.widget },
        body: { title: "By priority", config: { groupBy: "priority" } }
      },
      response: {
        status: 200,
        body: { ...exampleDashboard, widgets: [{ ...exampleWidget, title: "By priority", config: { groupBy: "priority" } }] }
      }
    }
  ],
  deleteDashboardWidget: [
    {
      name: "remove",
      request: { params: { dashboardId: planningIds.dashboard, widgetId: planningIds.widget } },
      response: { status: 204 }
    }
  ],
  getDashboardData: [
    {
      name: "data",
      request: { params: { dashboardId: planningIds.dashboard } },
      response: {
        status: 200,
        body: {
          dashboardId: planningIds.dashboard,
          name: "Engineering health",
          generatedAt: at0,
          widgets: [{ widgetId: planningIds.widget, type: "task_count", title: "By status", data: exampleCounts, error: null }]
        }
      }
    }
  ],
  getTaskCounts: [
    {
      name: "by status",
      request: { params: ws, query: { groupBy: "status", spaceId: ids.space } },
      response: { status: 200, body: exampleCounts }
    }
  ],
  getTaskDistribution: [
    {
      name: "due dates",
      request: { params: ws, query: { field: "due_date" } },
      response: {
        status: 200,
        body: {
          field: "due_date",
          total: 9,
          buckets: [
            { key: "overdue", label: "Overdue", count: 2 },
            { key: "today", label: "Today", count: 1 },
            { key: "tomorrow", label: "Tomorrow", count: 0 },
            { key: "this_week", label: "Next 7 days", count: 3 },
            { key: "later", label: "Later", count: 1 },
            { key: "none", label: "No due date", count: 2 }
          ],
          summary: { withDueDate: 7, overdue: 2 }
        }
      }
    }
  ],
  getWorkload: [
    {
      name: "workload",
      request: { params: ws, query: { capacityMinutes: "2400" } },
      response: {
        status: 200,
        body: {
          items: [
            {
              user: exampleUser,
              openTasks: 4,
              overdueTasks: 1,
              dueThisWeek: 2,
              estimateMinutes: 1200,
              byPriority: { urgent: 1, high: 1, normal: 2, low: 0, none: 0 },
              utilization: 50
            }
          ]
        }
      }
    }
  ],
  getThroughput: [
    {
      name: "two days",
      request: { params: ws, query: { from: "2026-11-20", to: "2026-11-21" } },
      response: {
        status: 200,
        body: {
          from: "2026-11-20",
          to: "2026-11-21",
          days: [
            { date: "2026-11-20", created: 4, closed: 2 },
            { date: "2026-11-21", created: 1, closed: 3 }
          ],
          totals: { created: 5, closed: 5, net: 0 }
        }
      }
    }
  ],
  getCycleTime: [
    {
      name: "cycle time",
      request: { params: ws, query: { days: "30" } },
      response: {
        status: 200,
        body: {
          from: "2026-10-23",
          to: "2026-11-21",
          count: 1,
          cycleHours: { average: 30, median: 30, p85: 30, min: 30, max: 30 },
          leadHours: { average: 52, median: 52, p85: 52, min: 52, max: 52 },
          items: [
            {
              taskId: ids.task,
              shortId: "T-42",
              name: "Ship the login page",
              createdAt: "2026-11-19T08:00:00.000Z",
              startedAt: "2026-11-20T06:00:00.000Z",
              closedAt: at0,
              cycleHours: 30,
              leadHours: 52
            }
          ]
        }
      }
    }
  ],
  getOverdueTasks: [
    {
      name: "overdue",
      request: { params: ws },
      response: {
        status: 200,
        body: { total: 1, byAssignee: [{ user: exampleUser, count: 1 }], items: [{ daysOverdue: 2, task: exampleTask }] }
      }
    }
  ],
  getRelationshipGraph: [
    {
      name: "blocks",
      request: { params: ws, query: { types: "blocks" } },
      response: {
        status: 200,
        body: {
          nodes: [
            { ...exampleSummary, inScope: true, degree: 1 },
            {
              ...exampleSummary,
              id: ids.task2,
              shortId: "T-43",
              name: "Design review",
              status: "to do",
              statusType: "open",
              inScope: true,
              degree: 1
            }
          ],
          edges: [{ id: ids.relationship, type: "blocks", source: ids.task, target: ids.task2 }],
          stats: {
            nodes: 2,
            edges: 1,
            byType: { blocks: 1, relates_to: 0, duplicates: 0 },
            blockedTasks: 1,
            longestBlockingChain: [ids.task, ids.task2]
          }
        }
      }
    }
  ],
  getVotingResults: [
    {
      name: "votes",
      request: { params: ws },
      response: {
        status: 200,
        body: {
          totalVotes: 3,
          voters: 2,
          items: [
            {
              taskId: ids.task,
              shortId: "T-42",
              name: "Ship the login page",
              status: "to do",
              finished: false,
              listId: ids.list,
              votes: 2,
              votedByMe: true,
              share: 66.67,
              voters: [exampleUser]
            }
          ],
          reactions: [{ emoji: "👍", count: 4 }]
        }
      }
    }
  ],
  setTaskVote: [
    {
      name: "vote",
      request: { params: { taskId: ids.task }, body: { vote: true } },
      response: { status: 200, body: { taskId: ids.task, votes: 3, votedByMe: true } }
    }
  ],
  getSprintBurndown: [
    {
      name: "burndown",
      request: { params: { sprintId: planningIds.sprint } },
      response: {
        status: 200,
        body: {
          sprintId: planningIds.sprint,
          name: "Web 12",
          status: "active",
          unit: "tasks",
          startDate: exampleSprint.startDate,
          endDate: exampleSprint.endDate,
          committed: 8,
          days: [
            { date: "2026-11-16", scope: 8, completed: 0, remaining: 8, ideal: 8 },
            { date: "2026-11-17", scope: 9, completed: 2, remaining: 7, ideal: 7.43 },
            { date: "2026-11-18", scope: null, completed: null, remaining: null, ideal: 6.86 }
          ],
          current: { scope: 9, completed: 2, remaining: 7 }
        }
      }
    }
  ],
  getSprintVelocity: [
    {
      name: "velocity",
      request: { params: { spaceId: ids.space } },
      response: {
        status: 200,
        body: {
          sprints: [
            {
              sprintId: planningIds.sprint,
              name: "Web 12",
              sprintGroupId: planningIds.sprintGroup,
              startDate: exampleSprint.startDate,
              endDate: exampleSprint.endDate,
              completedAt: "2026-11-30T09:00:00.000Z",
              committedTasks: 8,
              completedTasks: 6,
              committedMinutes: 2400,
              completedMinutes: 1800,
              completionRate: 75
            }
          ],
          average: { completedTasks: 6, completedMinutes: 1800, completionRate: 75 }
        }
      }
    }
  ]
})
