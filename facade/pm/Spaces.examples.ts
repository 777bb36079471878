/** Request and response examples of the operations in Spaces.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { exampleIds as ids, at0 } from "./WorkAccess.ts"
import { exampleSpace, exampleStatuses, exampleTask, exampleList, exampleCounts } from "./WorkExamples.ts"

const ws = { workspaceId: ids.workspace }

const sp = { spaceId: ids.space }

const exampleTree = {
  id: ids.space,
  shortId: "S-1",
  name: "Engineering",
  isPrivate: false,
  archived: false,
  folders: [
    {
      id: ids.folder,
      shortId: "F-1",
      name: "Q4 roadmap",
      archived: false,
      lists: [{ id: ids.list, shortId: "L-1", name: "Backlog", archived: false, taskCounts: exampleCounts }]
    }
  ],
  lists: []
}

const exampleTemplate = {
  name: "Engineering",
  description: "Product engineering",
  color: "#7b68ee",
  statuses: exampleStatuses.map(({ name, type, color }) => ({ name, type, color })),
  customFields: [{ name: "Story points", type: "number" }],
  folders: [{ name: "Q4 roadmap", lists: [{ name: "Backlog" }] }],
  lists: [{ name: "Inbox" }]
}

export const spacesExamples = examplesById({
  createSpace: [
    {
      name: "create",
      request: { params: ws, body: { name: "Engineering", color: "#7b68ee" } },
      response: { status: 201, body: exampleSpace }
    }
  ],
  listSpaces: [{ name: "list", request: { params: ws }, response: { status: 200, body: { items: [exampleSpace] } } }],
  getSpace: [{ name: "get", request: { params: sp }, response: { status: 200, body: exampleSpace } }],
  updateSpace: [
    {
      name: "rename",
      request: { params: sp, body: { name: "Platform" } },
      response: { status: 200, body: { ...exampleSpace, name: "Platform" } }
    }
  ],
  deleteSpace: [{ name: "delete", request: { params: sp }, response: { status: 204 } }],
  archiveSpace: [
    { name: "archive", request: { params: sp }, response: { status: 200, body: { ...exampleSpace, archived: true, archivedAt: at0 } } }
  ],
  restoreSpace: [{ name: "restore", request: { params: sp }, response: { status: 200, body: exampleSpace } }],
  reorderSpaces: [
    {
      name: "reorder",
      request: { params: ws, body: { spaceIds: [ids.space] } },
      response: { status: 200, body: { spaceIds: [ids.space] } }
    }
  ],
  duplicateSpace: [
    {
      name: "duplicate",
      request: { params: sp, body: { name: "Engineering 2027" } },
      response: { status: 201, body: { ...exampleSpace, name: "Engineering 2027" } }
    }
  ],
  getSpaceByShortId: [
    { name: "by-short-id", request: { params: { ...ws, shortId: "S-1" } }, response: { status: 200, body: exampleSpace } }
  ],
  getSpacesTree: [{ name: "tree", request: { params: ws }, response: { status: 200, body: { items: [exampleTree] } } }],
  getSpaceHierarchy: [{ name: "hierarchy", request: { params: sp }, response: { status: 200, body: exampleTree } }],
  listSpaceTasks: [
    {
      name: "open-high",
      request: { params: sp, query: { priorities: "urgent,high", includeClosed: "false" } },
      response: { status: 200, body: { items: [exampleTask], total: 1, offset: 0, limit: 50 } }
    }
  ],
  getSpaceStats: [
    {
      name: "stats",
      request: { params: sp },
      response: {
        status: 200,
        body: {
          taskCounts: exampleCounts,
          folderCount: 1,
          listCount: 1,
          byList: [{ listId: ids.list, name: "Backlog", taskCounts: exampleCounts }]
        }
      }
    }
  ],
  listSpaceMembers: [
    {
      name: "members",
      request: { params: sp },
      response: {
        status: 200,
        body: { isPrivate: true, items: [{ user: { id: ids.user, email: "alice@example.com", name: "Alice" }, addedAt: at0 }] }
      }
    }
  ],
  addSpaceMember: [
    { name: "add", request: { params: sp, body: { userId: ids.user2 } }, response: { status: 201, body: { userId: ids.user2 } } }
  ],
  removeSpaceMember: [{ name: "remove", request: { params: { ...sp, userId: ids.user2 } }, response: { status: 204 } }],
  getSpaceFeatures: [{ name: "features", request: { params: sp }, response: { status: 200, body: exampleSpace.features } }],
  updateSpaceFeatures: [
    {
      name: "no-time-tracking",
      request: { params: sp, body: { timeTracking: false } },
      response: { status: 200, body: { ...exampleSpace.features, timeTracking: false } }
    }
  ],
  getSpaceTaskDefaults: [
    { name: "defaults", request: { params: sp }, response: { status: 200, body: { priority: "normal", dueInDays: 7 } } }
  ],
  updateSpaceTaskDefaults: [
    {
      name: "defaults",
      request: { params: sp, body: { priority: "normal", dueInDays: 7 } },
      response: { status: 200, body: { priority: "normal", dueInDays: 7 } }
    }
  ],
  listSpaceAssignees: [
    {
      name: "workload",
      request: { params: sp },
      response: {
        status: 200,
        body: {
          items: [
            {
              user: { id: ids.user2, email: "bob@example.com", name: "Bob" },
              openTasks: 4,
              totalTasks: 9,
              openEstimateMinutes: 480,
              overdueTasks: 1
            }
          ]
        }
      }
    }
  ],
  listSpaceArchive: [
    {
      name: "archive",
      request: { params: sp },
      response: {
        status: 200,
        body: { folders: [], lists: [{ ...exampleList, archived: true, archivedAt: at0 }], tasks: [], archivedTaskCount: 0 }
      }
    }
  ],
  searchSpace: [
    {
      name: "search",
      request: { params: sp, query: { q: "login" } },
      response: { status: 200, body: { folders: [], lists: [], tasks: [exampleTask] } }
    }
  ],
  exportSpaceTemplate: [{ name: "template", request: { params: sp }, response: { status: 200, body: exampleTemplate } }],
  importSpaceTemplate: [
    {
      name: "import",
      request: { params: ws, body: { template: exampleTemplate, name: "Engineering (new)" } },
      response: { status: 201, body: { ...exampleSpace, name: "Engineering (new)" } }
    }
  ],
  getMySpacePermissions: [
    {
      name: "permissions",
      request: { params: sp },
      response: { status: 200, body: { role: "member", canRead: true, canWrite: true, canManage: false, isPrivate: false } }
    }
  ]
})
