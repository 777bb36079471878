/**
 * wiki tag "Wiki User Settings" (2): the caller's own wiki preferences —
 * theme, full-width pages, spellcheck, whether pages open in edit or read
 * mode, and whether their searches are remembered (turning that off forgets
 * the recent searches kept so far).
 */
import { Effect } from "effect"

import { UserSettings, UserSettingsPatch, userSettingsOf, WikiMember } from "../../actors/wiki/WikiMember.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { principalOf } from "../Access.ts"
import { tagGroup } from "../Operation.ts"
import { wikiUserSettingsExamples } from "./WikiUserSettings.examples.ts"

const { operation } = tagGroup("wiki", "Wiki User Settings", wikiUserSettingsExamples)

export const wikiUserSettingsOperations = [
  operation({
    operationId: "getWikiUserSettings",
    method: "GET",
    path: "/v1/user-settings",
    summary: "The caller's wiki preferences",
    description:
      "Defaults until changed: system theme, normal width, spellcheck on, pages open in edit mode, searches remembered. An API key reads its creator's.",
    auth: "both",
    scopes: ["wiki:read"],
    responses: { 200: { description: "Preferences", schema: UserSettings } },
    handler: (_request, context) =>
      Effect.gen(function* () {
        const principal = yield* principalOf(context)
        return yield* userSettingsOf(principal.userId).pipe(Effect.orDie)
      })
  }),
  operation({
    operationId: "updateWikiUserSettings",
    method: "PATCH",
    path: "/v1/user-settings",
    summary: "Change the caller's wiki preferences",
    description: "Fields left out are unchanged. `saveSearchHistory: false` also forgets the recent searches kept so far.",
    auth: "both",
    scopes: ["wiki:write"],
    body: UserSettingsPatch,
    responses: { 200: { description: "Updated preferences", schema: UserSettings } },
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const principal = yield* principalOf(context)
        return yield* (yield* ActorSystem).ask(WikiMember, principal.userId, "updateSettings", body)
      })
  })
]
