/** Request and response examples of the operations in StructureLite.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { exampleIds as ids } from "./WorkAccess.ts"

const ws = ids.workspace

const exampleSpace = { id: ids.space, shortId: "S-1", name: "Engineering", isPrivate: false }

const exampleFolder = { id: ids.folder, shortId: "F-1", name: "Q4 roadmap", space: "Engineering" }

const exampleList = { id: ids.list, shortId: "L-1", name: "Backlog", space: "Engineering", folder: "Q4 roadmap" }

const exampleField = {
  id: ids.field,
  name: "Environment",
  type: "dropdown",
  required: false,
  options: ["production", "staging"],
  definedOn: "space Engineering"
}

export const structureLiteExamples = examplesById({
  createSpaceLite: [
    { name: "create", request: { body: { workspaceId: ws, name: "Engineering" } }, response: { status: 201, body: exampleSpace } }
  ],
  createFolderLite: [
    {
      name: "create",
      request: { body: { workspaceId: ws, space: "Engineering", name: "Q4 roadmap" } },
      response: { status: 201, body: exampleFolder }
    }
  ],
  createListLite: [
    {
      name: "create",
      request: { body: { workspaceId: ws, space: "Engineering", folder: "Q4 roadmap", name: "Backlog" } },
      response: { status: 201, body: exampleList }
    }
  ],
  createCustomFieldLite: [
    {
      name: "dropdown",
      request: {
        body: { workspaceId: ws, space: "Engineering", name: "Environment", type: "dropdown", options: ["production", "staging"] }
      },
      response: { status: 201, body: exampleField }
    }
  ],
  addCustomFieldOptionLite: [
    {
      name: "add-option",
      request: { body: { workspaceId: ws, space: "Engineering", field: "Environment", option: "staging" } },
      response: { status: 201, body: exampleField }
    }
  ],
  createStatusLite: [
    {
      name: "review",
      request: { body: { workspaceId: ws, space: "Engineering", list: "Backlog", name: "in review", type: "active" } },
      response: {
        status: 201,
        body: {
          items: [
            { name: "to do", type: "open" },
            { name: "in review", type: "active" },
            { name: "done", type: "done" }
          ]
        }
      }
    }
  ],
  getStructureLite: [
    {
      name: "tree",
      request: { query: { workspaceId: ws } },
      response: {
        status: 200,
        body: {
          spaces: [
            {
              name: "Engineering",
              shortId: "S-1",
              folders: [{ name: "Q4 roadmap", shortId: "F-1", lists: [{ name: "Backlog", shortId: "L-1", openTasks: 8 }] }],
              lists: []
            }
          ]
        }
      }
    }
  ],
  resolveListLite: [
    {
      name: "resolve",
      request: { query: { workspaceId: ws, space: "Engineering", list: "Backlog" } },
      response: {
        status: 200,
        body: {
          ...exampleList,
          spaceId: ids.space,
          folderId: ids.folder,
          statuses: [
            { name: "to do", type: "open" },
            { name: "done", type: "done" }
          ],
          customFields: [exampleField]
        }
      }
    }
  ],
  updateFolderLite: [
    {
      name: "rename",
      request: { body: { workspaceId: ws, space: "Engineering", folder: "Q4 roadmap", newName: "2027 roadmap" } },
      response: { status: 200, body: { ...exampleFolder, name: "2027 roadmap" } }
    }
  ],
  updateListLite: [
    {
      name: "rename",
      request: { body: { workspaceId: ws, space: "Engineering", list: "Backlog", newName: "Icebox" } },
      response: { status: 200, body: { ...exampleList, name: "Icebox" } }
    }
  ]
})
