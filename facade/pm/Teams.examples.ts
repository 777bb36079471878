/** Request and response examples of the operations in Teams.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"

const ws = "0b9e4c1a-6f0e-4d5f-9a77-3f7c2f1e8a10"

const exampleTeam = {
  id: "5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a",
  workspaceId: ws,
  name: "Design",
  description: "Product and brand design",
  color: "#7b68ee",
  members: [
    {
      userId: "6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f",
      name: "Alice",
      email: "alice@example.com",
      role: "lead",
      addedAt: "2026-11-21T12:00:00.000Z"
    },
    {
      userId: "7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d",
      name: "Bob",
      email: "bob@example.com",
      role: "member",
      addedAt: "2026-11-21T12:00:00.000Z"
    }
  ],
  memberCount: 2,
  createdBy: "6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f",
  createdAt: "2026-11-21T12:00:00.000Z",
  updatedAt: "2026-11-21T12:00:00.000Z"
}

export const teamsExamples = examplesById({
  listTeams: [{ name: "list", request: { params: { workspaceId: ws } }, response: { status: 200, body: { items: [exampleTeam] } } }],
  createTeam: [
    {
      name: "create",
      request: {
        params: { workspaceId: ws },
        body: {
          name: "Design",
          description: "Product and brand design",
          color: "#7b68ee",
          members: [{ userId: exampleTeam.members[1]!.userId, role: "member" }]
        }
      },
      response: { status: 201, body: exampleTeam }
    }
  ],
  updateTeam: [
    {
      name: "rename",
      request: { params: { teamId: exampleTeam.id }, body: { name: "Design Systems" } },
      response: { status: 200, body: { ...exampleTeam, name: "Design Systems" } }
    }
  ],
  deleteTeam: [{ name: "delete", request: { params: { teamId: exampleTeam.id } }, response: { status: 204 } }],
  updateTeamMembers: [
    {
      name: "add-lead",
      request: {
        params: { teamId: exampleTeam.id },
        body: { add: [{ userId: exampleTeam.members[1]!.userId, role: "lead" }], remove: [] }
      },
      response: { status: 200, body: { ...exampleTeam, members: exampleTeam.members.map((m) => ({ ...m, role: "lead" })) } }
    }
  ]
})
