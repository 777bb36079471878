/** Request and response examples of the operations in Templates.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { ws, li, tk } from "./shared.ts"
import { exampleIds as ids, at0 } from "../WorkAccess.ts"
import { exampleTask } from "../WorkExamples.ts"

export const templatesExamples = examplesById({
  saveTaskAsTemplate: [
    {
      name: "save",
      request: { params: tk, body: { name: "Release checklist" } },
      response: {
        status: 201,
        body: {
          id: ids.template,
          workspaceId: ids.workspace,
          name: "Release checklist",
          template: { name: "Ship the login page" },
          createdBy: ids.user,
          createdAt: at0
        }
      }
    }
  ],
  listTaskTemplates: [
    {
      name: "templates",
      request: { params: ws },
      response: {
        status: 200,
        body: {
          items: [
            {
              id: ids.template,
              workspaceId: ids.workspace,
              name: "Release checklist",
              template: { name: "Ship" },
              createdBy: ids.user,
              createdAt: at0
            }
          ]
        }
      }
    }
  ],
  createTaskFromTemplate: [
    {
      name: "from-template",
      request: { params: li, body: { templateId: ids.template, name: "Release 2.0" } },
      response: { status: 201, body: { ...exampleTask, name: "Release 2.0" } }
    }
  ],
  deleteTaskTemplate: [{ name: "delete", request: { params: { ...ws, templateId: ids.template } }, response: { status: 204 } }]
})
