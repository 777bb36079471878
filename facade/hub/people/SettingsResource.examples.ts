/** Request and response examples of the operations in SettingsResource.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { defaultHubSettings } from "../../../actors/hub/people/HubUserSettings.ts"

export const exampleSettings = {
  general: { language: "en", transcriptLanguage: "de", timezone: "Europe/Berlin" },
  recording: { autoJoin: "organized", recordExternalMeetings: false, botName: "Alice's Notetaker", defaultShareScope: "participants" },
  notifications: { recapEmail: true, recapRecipients: "me", actionItemsEmail: true, weeklyDigest: false, sharedWithMeEmail: true },
  updatedAt: "2026-11-21T12:00:00.000Z"
}

export const settingsResourceExamples = examplesById({
  getMyHubSettings: [{ name: "get", response: { status: 200, body: exampleSettings } }],
  updateMyHubSettings: [
    {
      name: "timezone",
      request: { body: { timezone: "Europe/Berlin", transcriptLanguage: "de" } },
      response: { status: 200, body: exampleSettings }
    }
  ],
  resetMyHubSettings: [{ name: "reset", response: { status: 200, body: { ...defaultHubSettings, updatedAt: "2026-11-21T12:00:00.000Z" } } }]
})
