/** Request and response examples of the operations in Calls.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { exampleCall, exampleIds, exampleSegments } from "./calls/Examples.ts"

const params = { callId: String(exampleIds.callId) }

const exampleTemplate = {
  name: "Sales discovery",
  sections: [
    { title: "Pain points", instruction: "Problems and complaints the customer raised" },
    { title: "Next steps", instruction: "Who does what, by when" }
  ]
}

export const callsExamples = examplesById({
  listCalls: [
    {
      name: "list",
      request: { query: { workspaceId: exampleIds.workspaceId } },
      response: { status: 200, body: { items: [exampleCall], nextBefore: null } }
    }
  ],
  getCall: [{ name: "get", request: { params }, response: { status: 200, body: exampleCall } }],
  getCallByUuid: [{ name: "get", request: { params: { callUuid: exampleIds.callUuid } }, response: { status: 200, body: exampleCall } }],
  renameCall: [{ name: "rename", request: { params, body: { name: "Launch review" } }, response: { status: 200, body: exampleCall } }],
  getCallTranscript: [{ name: "transcript", request: { params }, response: { status: 200, body: { segments: exampleSegments } } }],
  updateMyCallNotes: [
    { name: "notes", request: { params, body: { notes: "login errors" } }, response: { status: 200, body: exampleCall } }
  ],
  setMyCallPrompt: [
    {
      name: "prompt",
      request: { params, body: { prompt: "Focus on the release date" } },
      response: { status: 200, body: { ...exampleCall, myPrompt: "Focus on the release date" } }
    }
  ],
  setMyNoteTemplate: [{ name: "template", request: { body: exampleTemplate }, response: { status: 200, body: exampleTemplate } }],
  getMyNoteTemplate: [{ name: "template", response: { status: 200, body: exampleTemplate } }],
  deleteMyNoteTemplate: [{ name: "delete", response: { status: 204 } }]
})
