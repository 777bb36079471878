/** Request and response examples of the operations in InviteLink.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { exampleJoined, wsp, alice, later } from "./shared.ts"
import { at0 } from "../WorkAccess.ts"

const exampleInviteLink = {
  enabled: true,
  codePrefix: "pmjoin_a1B2c3",
  role: "member",
  createdBy: alice.userId,
  createdAt: at0,
  expiresAt: later,
  maxUses: 20,
  uses: 3
}

const exampleCode = "pmjoin_a1B2c3RlbGwgbm9ib2R5IGJ1dCB5b3VyIHRlYW0gcGx"

export const inviteLinkExamples = examplesById({
  getWorkspaceInviteLink: [{ name: "get", request: { params: wsp }, response: { status: 200, body: exampleInviteLink } }],
  createWorkspaceInviteLink: [
    {
      name: "create",
      request: { params: wsp, body: { role: "member", maxUses: 20 } },
      response: { status: 201, body: { link: exampleInviteLink, code: exampleCode } }
    }
  ],
  disableWorkspaceInviteLink: [{ name: "disable", request: { params: wsp }, response: { status: 204 } }],
  joinWorkspaceByInviteLink: [{ name: "join", request: { body: { code: exampleCode } }, response: { status: 200, body: exampleJoined } }]
})
