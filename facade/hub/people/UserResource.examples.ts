/** Request and response examples of the operations in UserResource.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"

const exampleUserId = "6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f"

const exampleWorkspaceId = "0b9e4c1a-6f0e-4d5f-9a77-3f7c2f1e8a10"

const exampleProfile = {
  jobTitle: "Product manager",
  company: "Acme",
  pronouns: "she/her",
  phone: null,
  bio: null,
  speakerAliases: ["Alice", "Alice S."],
  defaultWorkspaceId: exampleWorkspaceId
}

const exampleMe = {
  id: exampleUserId,
  email: "alice@example.com",
  name: "Alice",
  ...exampleProfile,
  workspaces: [{ id: exampleWorkspaceId, name: "Acme", role: "owner" }],
  updatedAt: "2026-11-21T12:00:00.000Z"
}

const exampleUser = { id: exampleUserId, email: "alice@example.com", name: "Alice", role: "owner", ...exampleProfile }

export const userResourceExamples = examplesById({
  getHubMe: [{ name: "me", response: { status: 200, body: exampleMe } }],
  updateHubMe: [
    { name: "title", request: { body: { jobTitle: "Product manager", pronouns: "she/her" } }, response: { status: 200, body: exampleMe } }
  ],
  setMySpeakerAliases: [
    { name: "aliases", request: { body: { aliases: ["Alice", "Alice S."] } }, response: { status: 200, body: exampleMe } }
  ],
  setMyDefaultWorkspace: [
    { name: "set", request: { body: { workspaceId: exampleWorkspaceId } }, response: { status: 200, body: exampleMe } }
  ],
  listHubWorkspaceUsers: [
    { name: "list", request: { params: { workspaceId: exampleWorkspaceId } }, response: { status: 200, body: { items: [exampleUser] } } }
  ],
  getHubWorkspaceUser: [
    {
      name: "get",
      request: { params: { workspaceId: exampleWorkspaceId, userId: exampleUserId } },
      response: { status: 200, body: exampleUser }
    }
  ],
  matchHubWorkspaceUsers: [
    {
      name: "attendees",
      request: { params: { workspaceId: exampleWorkspaceId }, body: { emails: ["alice@example.com", "guest@partner.example"] } },
      response: {
        status: 200,
        body: {
          items: [
            { email: "alice@example.com", user: exampleUser },
            { email: "guest@partner.example", user: null }
          ]
        }
      }
    }
  ]
})
