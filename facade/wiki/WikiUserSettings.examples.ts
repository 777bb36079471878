/** Request and response examples of the operations in WikiUserSettings.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { ex } from "../../actors/wiki/DiscoveryViews.ts"

const example = { theme: "dark", fullWidth: true, spellcheck: true, defaultEditMode: "edit", saveSearchHistory: true, updatedAt: ex.at }

export const wikiUserSettingsExamples = examplesById({
  getWikiUserSettings: [{ name: "preferences", response: { status: 200, body: example } }],
  updateWikiUserSettings: [
    { name: "dark-and-wide", request: { body: { theme: "dark", fullWidth: true } }, response: { status: 200, body: example } }
  ]
})
