/** Request and response examples of the operations in BotEvents.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { exampleBotId } from "./MeetingShared.ts"
import { exampleIds } from "../calls/Examples.ts"

const exampleEvent = {
  id: "evt_bot_5c2e9a71",
  event: "bot.status_change",
  data: {
    bot: { id: "bot_4f8e2a1c", metadata: { workspaceId: exampleIds.workspaceId } },
    status: { code: "in_call_recording", updated_at: "2026-12-01T10:01:00.000Z" }
  }
}

export const botEventsExamples = examplesById({
  receiveMeetingBotEvent: [
    {
      name: "recording",
      request: { body: exampleEvent },
      response: { status: 200, body: { eventId: exampleEvent.id, outcome: "applied", botId: exampleBotId, status: "in_call_recording" } }
    }
  ]
})
