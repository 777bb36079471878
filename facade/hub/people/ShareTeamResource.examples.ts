/** Request and response examples of the operations in ShareTeamResource.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"

const exampleWorkspaceId = "0b9e4c1a-6f0e-4d5f-9a77-3f7c2f1e8a10"

const exampleTeamId = "4c5d6e7f-8091-4a2b-8c3d-4e5f6a7b8c9d"

const exampleShareId = "3a4b5c6d-7e8f-4a9b-8c0d-1e2f3a4b5c6d"

const exampleShare = {
  id: exampleShareId,
  callId: 1042,
  recipientType: "team",
  recipientId: exampleTeamId,
  recipientName: "Sales",
  message: "Worth a listen: pricing objections at 12:30",
  sharedBy: "6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f",
  createdAt: "2026-11-21T12:00:00.000Z"
}

export const shareTeamResourceExamples = examplesById({
  shareCall: [
    {
      name: "with-team",
      request: { params: { callId: "1042" }, body: { teamIds: [exampleTeamId], message: exampleShare.message } },
      response: { status: 201, body: { items: [exampleShare] } }
    }
  ],
  listCallShares: [{ name: "list", request: { params: { callId: "1042" } }, response: { status: 200, body: { items: [exampleShare] } } }],
  revokeCallShare: [{ name: "revoke", request: { params: { callId: "1042", shareId: exampleShareId } }, response: { status: 204 } }],
  listSharedWithMe: [
    {
      name: "list",
      request: { params: { workspaceId: exampleWorkspaceId } },
      response: {
        status: 200,
        body: {
          items: [
            {
              callId: 1042,
              callUuid: "c0ffee00-0000-4000-8000-000000000001",
              callName: "Acme renewal",
              sharedBy: exampleShare.sharedBy,
              via: "team",
              teamId: exampleTeamId,
              message: exampleShare.message,
              sharedAt: exampleShare.createdAt
            }
          ]
        }
      }
    }
  ],
  listShareTeams: [
    {
      name: "teams",
      request: { params: { workspaceId: exampleWorkspaceId } },
      response: { status: 200, body: { items: [{ id: exampleTeamId, name: "Sales", memberCount: 4, isMember: true }] } }
    }
  ]
})
