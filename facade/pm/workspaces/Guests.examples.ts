/** Request and response examples of the operations in Guests.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { ws, bob, exampleDetail, later, wsp } from "./shared.ts"
import { exampleIds as ids } from "../WorkAccess.ts"

const exampleGuest = {
  ...exampleDetail,
  role: "viewer",
  guest: true,
  guestExpiresAt: later,
  spaces: [{ id: ids.space, name: "Client portal" }]
}

export const guestsExamples = examplesById({
  addWorkspaceGuest: [
    {
      name: "guest",
      request: { params: wsp, body: { email: "bob@example.com", expiresAt: later, spaceIds: [ids.space] } },
      response: { status: 201, body: exampleGuest }
    }
  ],
  listWorkspaceGuests: [{ name: "guests", request: { params: wsp }, response: { status: 200, body: { items: [exampleGuest] } } }],
  updateWorkspaceGuest: [
    {
      name: "extend",
      request: { params: { workspaceId: ws, userId: bob.userId }, body: { expiresAt: later } },
      response: { status: 200, body: exampleGuest }
    }
  ],
  removeWorkspaceGuest: [{ name: "remove", request: { params: { workspaceId: ws, userId: bob.userId } }, response: { status: 204 } }],
  convertWorkspaceGuest: [
    {
      name: "convert",
      request: { params: { workspaceId: ws, userId: bob.userId }, body: { role: "member" } },
      response: { status: 200, body: exampleDetail }
    }
  ]
})
