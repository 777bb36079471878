/** Request and response examples of the operations in Hierarchy.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { wsp, ws } from "./shared.ts"
import { exampleIds as ids, at0 } from "../WorkAccess.ts"
import { defaults } from "../../../actors/pm/WorkspaceConfig.ts"

const exampleStructure = {
  format: "atrium.pm.workspace-structure",
  version: 1,
  exportedAt: at0,
  workspace: { name: "Acme", settings: { general: defaults.general, features: defaults.features, defaultViews: defaults.defaultViews } },
  spaces: [
    {
      name: "Engineering",
      description: "",
      color: "#7b68ee",
      statuses: [
        { name: "to do", type: "open", color: "#87909e" },
        { name: "done", type: "done", color: "#30a46c" }
      ],
      customFields: [
        { name: "Environment", type: "dropdown", required: false, config: { options: [{ name: "production" }, { name: "staging" }] } }
      ],
      folders: [{ name: "Q4 roadmap", lists: [{ name: "Backlog" }] }],
      lists: []
    }
  ]
}

const exampleHierarchyList = {
  id: ids.list,
  shortId: "L-1",
  name: "Backlog",
  archived: false,
  statusesFrom: "space",
  statusCount: 4,
  customFieldCount: 1,
  tasks: 12,
  unfinishedTasks: 8
}

export const hierarchyExamples = examplesById({
  getWorkspaceHierarchy: [
    {
      name: "tree",
      request: { params: wsp },
      response: {
        status: 200,
        body: {
          workspace: { id: ws, name: "Acme" },
          spaces: [
            {
              id: ids.space,
              shortId: "S-1",
              name: "Engineering",
              archived: false,
              isPrivate: false,
              folders: [{ id: ids.folder, shortId: "F-1", name: "Q4 roadmap", archived: false, lists: [exampleHierarchyList] }],
              lists: []
            }
          ],
          totals: { spaces: 1, folders: 1, lists: 1, tasks: 12 }
        }
      }
    }
  ],
  listWorkspaceFolders: [
    {
      name: "folders",
      request: { params: wsp },
      response: {
        status: 200,
        body: {
          items: [
            { id: ids.folder, shortId: "F-1", name: "Q4 roadmap", spaceId: ids.space, space: "Engineering", lists: 3, archived: false }
          ]
        }
      }
    }
  ],
  resolveWorkspaceShortId: [
    {
      name: "task",
      request: { params: { workspaceId: ws, shortId: "T-42" } },
      response: {
        status: 200,
        body: {
          type: "task",
          id: ids.task,
          shortId: "T-42",
          name: "Ship the login page",
          spaceId: ids.space,
          folderId: ids.folder,
          listId: ids.list,
          path: "Engineering / Q4 roadmap / Backlog",
          archived: false
        }
      }
    }
  ],
  searchWorkspace: [
    {
      name: "login",
      request: { params: wsp, query: { q: "login" } },
      response: {
        status: 200,
        body: {
          items: [
            {
              type: "task",
              id: ids.task,
              shortId: "T-42",
              name: "Ship the login page",
              path: "Engineering / Q4 roadmap / Backlog",
              archived: false
            }
          ]
        }
      }
    }
  ],
  listWorkspaceArchive: [
    {
      name: "archive",
      request: { params: wsp },
      response: {
        status: 200,
        body: {
          spaces: [],
          folders: [{ id: ids.folder, shortId: "F-1", name: "2025 roadmap", space: "Engineering", archivedAt: at0 }],
          lists: [],
          archivedTasks: 14
        }
      }
    }
  ],
  exportWorkspaceStructure: [{ name: "export", request: { params: wsp }, response: { status: 200, body: exampleStructure } }],
  importWorkspaceStructure: [
    {
      name: "import",
      request: { params: wsp, body: { structure: exampleStructure } },
      response: { status: 201, body: { spaces: [{ id: ids.space, shortId: "S-3", name: "Engineering" }], settingsApplied: false } }
    }
  ],
  listWorkspaceStatuses: [
    {
      name: "statuses",
      request: { params: wsp },
      response: {
        status: 200,
        body: {
          items: [
            {
              name: "in progress",
              types: ["active"],
              colors: ["#5f55ee"],
              definedIn: [{ scopeType: "space", scopeId: ids.space, name: "Engineering" }],
              tasks: 3
            }
          ]
        }
      }
    }
  ],
  listWorkspaceCustomFields: [
    {
      name: "fields",
      request: { params: wsp },
      response: {
        status: 200,
        body: {
          items: [
            {
              id: ids.field,
              name: "Environment",
              type: "dropdown",
              required: false,
              options: ["production", "staging"],
              scopeType: "space",
              scopeId: ids.space,
              scopeName: "Engineering",
              space: "Engineering",
              values: 7
            }
          ]
        }
      }
    }
  ],
  listWorkspaceTags: [
    {
      name: "tags",
      request: { params: wsp },
      response: {
        status: 200,
        body: { items: [{ id: ids.tag, name: "frontend", color: "#7b68ee", spaceId: ids.space, space: "Engineering", tasks: 5 }] }
      }
    }
  ]
})
