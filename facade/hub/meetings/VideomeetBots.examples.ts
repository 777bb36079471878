/** Request and response examples of the operations in VideomeetBots.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { exampleBotId, exampleBot } from "./MeetingShared.ts"
import { exampleIds } from "../calls/Examples.ts"

const params = { workspaceId: exampleIds.workspaceId }

export const videomeetBotsExamples = examplesById({
  scheduleMeetingBot: [
    {
      name: "meeting-url",
      request: {
        params,
        body: { meetingUrl: "https://meet.example.com/j/81234567890", title: "Weekly sync", joinAt: "2026-12-01T10:00:00.000Z" }
      },
      response: { status: 201, body: { ...exampleBot, occurrenceId: null, attendeeEmails: [] } }
    },
    {
      name: "occurrence",
      request: { params, body: { occurrenceId: exampleBot.occurrenceId } },
      response: { status: 201, body: exampleBot }
    }
  ],
  listMeetingBots: [{ name: "all", request: { params, query: {} }, response: { status: 200, body: { items: [exampleBot] } } }],
  getMeetingBot: [{ name: "get", request: { params: { ...params, botId: exampleBotId } }, response: { status: 200, body: exampleBot } }],
  cancelMeetingBot: [
    {
      name: "cancel",
      request: { params: { ...params, botId: exampleBotId } },
      response: { status: 200, body: { ...exampleBot, status: "cancelled" } }
    }
  ]
})
