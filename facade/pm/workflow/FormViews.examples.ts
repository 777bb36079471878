/** Request and response examples of the operations in FormViews.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { exampleIds as ids, at0 } from "../WorkAccess.ts"

const formId = "d4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f8a"

const token = "q3Jx9TbW2mVnYk8sLr4PzA1cHdEf6GuI"

const exampleFields = [
  { target: "name", label: "What went wrong?", required: true },
  { target: "description", label: "Steps to reproduce", helpText: "What did you do, what did you expect?" },
  { target: "priority", label: "How bad is it?" }
]

const exampleForm = {
  id: formId,
  workspaceId: ids.workspace,
  listId: ids.list,
  name: "Bug report",
  description: "Tell us what broke",
  fields: exampleFields,
  public: true,
  publicToken: token,
  rateLimitPerMinute: 10,
  submissionCount: 0,
  createdBy: ids.user,
  createdAt: at0,
  updatedAt: at0
}

const exampleAnswers = { name: "Export button does nothing", description: "Click Export on a list: nothing happens", priority: "high" }

export const formViewsExamples = examplesById({
  listForms: [{ name: "list", request: { params: { listId: ids.list } }, response: { status: 200, body: { items: [exampleForm] } } }],
  createForm: [
    {
      name: "bug-report",
      request: {
        params: { listId: ids.list },
        body: { name: "Bug report", description: "Tell us what broke", fields: exampleFields, public: true }
      },
      response: { status: 201, body: exampleForm }
    }
  ],
  getForm: [{ name: "get", request: { params: { formId } }, response: { status: 200, body: exampleForm } }],
  updateForm: [
    {
      name: "close-link",
      request: { params: { formId }, body: { public: false } },
      response: { status: 200, body: { ...exampleForm, public: false, publicToken: null } }
    }
  ],
  deleteForm: [{ name: "delete", request: { params: { formId } }, response: { status: 204 } }],
  submitForm: [
    {
      name: "submit",
      request: { params: { formId }, body: { answers: exampleAnswers } },
      response: { status: 201, body: { accepted: true, taskId: ids.task } }
    }
  ],
  getPublicForm: [
    {
      name: "render",
      request: { params: { token } },
      response: {
        status: 200,
        body: {
          id: formId,
          name: exampleForm.name,
          description: exampleForm.description,
          fields: exampleFields.map((f) => ({ key: f.target, ...f }))
        }
      }
    }
  ],
  submitPublicForm: [
    {
      name: "submit",
      request: { params: { token }, body: { answers: exampleAnswers } },
      response: { status: 202, body: { accepted: true, taskId: null } }
    }
  ]
})
