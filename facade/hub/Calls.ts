/**
 * hub tag "Calls" (12, with CallActionItems.ts): calls are the metadata
 * wrapper of recordings, each shown with the caller's own version; the
 * caller's notes, per-call prompt and note template are their personal
 * inputs, and changing one regenerates only their version.
 */
import { Effect, Schema } from "effect"
import { HubCall } from "../../actors/hub/CallActor.ts"
import { recordingRows, templateOf } from "../../actors/hub/CallRecords.ts"
import { Call } from "../../actors/hub/CallView.ts"
import { setTemplate } from "../../actors/hub/NoteTemplates.ts"
import { NoteTemplate } from "../../actors/hub/summarizer/VersionInputs.ts"
import { Segment } from "../../actors/hub/Transcript.ts"
import { Id, Name } from "../../actors/Fields.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { reject } from "../../runtime/Rejection.ts"
import { principalOf, workspaceRole } from "../Access.ts"
import { tagGroup } from "../Operation.ts"
import { CallParams, CallUuidParams, IntegerId, onCall, onCallUuid, onRecording, readerOf, callView } from "./calls/CallAccess.ts"

import { callsExamples } from "./Calls.examples.ts"
const read = ["recordings:read"]
const write = ["recordings:write"]

const Notes = Schema.String.check(Schema.isMaxLength(20_000))
const Prompt = Schema.String.check(Schema.isMaxLength(4000))

/** Sets one personal input of the caller and answers the call with their regenerated version. */
const setPersonal = (callId: number, context: Parameters<typeof onCall>[0], message: "setNotes" | "setPrompt", value: string | null) =>
  Effect.gen(function* () {
    const access = yield* onCall(context, callId)
    const reader = yield* readerOf(access)
    const actors = yield* ActorSystem
    const text = value === null || value.trim() === "" ? null : value
    return message === "setNotes"
      ? yield* actors.ask(HubCall, String(access.recordingId), "setNotes", { ...reader, notes: text })
      : yield* actors.ask(HubCall, String(access.recordingId), "setPrompt", { ...reader, prompt: text })
  })

const { operation } = tagGroup("hub", "Calls", callsExamples)

export const callsOperations = [
  operation({
    operationId: "listCalls",
    method: "GET",
    path: "/v1/calls",
    summary: "The workspace's calls, newest first, each with the caller's own version",
    auth: "both",
    scopes: read,
    query: Schema.Struct({
      workspaceId: Id,
      limit: Schema.optionalKey(Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 50 }))),
      before: Schema.optionalKey(IntegerId("nextBefore of the previous page (a call id)"))
    }),
    responses: {
      200: {
        description: "A page of calls",
        schema: Schema.Struct({ items: Schema.Array(Call), nextBefore: Schema.NullOr(Schema.Number) })
      }
    },
    handler: ({ query }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, query.workspaceId)
        const limit = query.limit ?? 20
        const rows = yield* Effect.orDie(
          recordingRows(`r.workspace_id = $1 AND r.call_id < $2 ORDER BY r.call_id DESC LIMIT ${limit + 1}`, [
            query.workspaceId,
            query.before ?? Number.MAX_SAFE_INTEGER
          ])
        )
        const page = rows.slice(0, limit)
        const items = yield* Effect.forEach(page, (row) => Effect.flatMap(onRecording(context, Number(row.id)), callView), {
          concurrency: 8
        })
        return { items, nextBefore: rows.length > limit ? Number(page[page.length - 1]!.callId) : null }
      })
  }),
  operation({
    operationId: "getCall",
    method: "GET",
    path: "/v1/calls/{callId}",
    summary: "A call with the caller's own summary, key points, action items, enhanced notes and notes",
    description:
      "`notesVersion` says which version the caller sees: everyone with identical inputs shares one; `isDefault` marks the one generated from the workspace prompt alone.",
    auth: "both",
    scopes: read,
    params: CallParams,
    responses: { 200: { description: "The call", schema: Call } },
    handler: ({ params }, context) => Effect.flatMap(onCall(context, params.callId), callView)
  }),
  operation({
    operationId: "getCallByUuid",
    method: "GET",
    path: "/v1/calls/by-uuid/{callUuid}",
    summary: "A call by its UUID, with the caller's own version",
    auth: "both",
    scopes: read,
    params: CallUuidParams,
    responses: { 200: { description: "The call", schema: Call } },
    handler: ({ params }, context) => Effect.flatMap(onCallUuid(context, params.callUuid), callView)
  }),
  operation({
    operationId: "renameCall",
    method: "PATCH",
    path: "/v1/calls/{callId}",
    summary: "Rename a call",
    auth: "both",
    scopes: write,
    params: CallParams,
    body: Schema.Struct({ name: Name(300) }),
    responses: { 200: { description: "The call", schema: Call } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const access = yield* onCall(context, params.callId, "member")
        yield* (yield* ActorSystem).ask(HubCall, String(access.recordingId), "rename", { name: body.name.trim() })
        return yield* callView(access)
      })
  }),
  operation({
    operationId: "getCallTranscript",
    method: "GET",
    path: "/v1/calls/{callId}/transcript",
    summary: "The call's transcript segments",
    auth: "both",
    scopes: read,
    params: CallParams,
    responses: { 200: { description: "Segments in order", schema: Schema.Struct({ segments: Schema.Array(Segment) }) } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const access = yield* onCall(context, params.callId)
        return { segments: yield* (yield* ActorSystem).ask(HubCall, String(access.recordingId), "transcript", {}) }
      })
  }),
  operation({
    operationId: "updateMyCallNotes",
    method: "PUT",
    path: "/v1/calls/{callId}/my-notes",
    summary: "Set the caller's own notes on the call (empty clears them); their version is regenerated",
    auth: "both",
    scopes: write,
    params: CallParams,
    body: Schema.Struct({ notes: Schema.NullOr(Notes) }),
    responses: { 200: { description: "The call with the caller's new version", schema: Call } },
    handler: ({ params, body }, context) => setPersonal(params.callId, context, "setNotes", body.notes)
  }),
  operation({
    operationId: "setMyCallPrompt",
    method: "PUT",
    path: "/v1/calls/{callId}/my-prompt",
    summary: "Set the caller's own prompt for this call (it replaces their calendar prompts here; empty clears it)",
    auth: "both",
    scopes: write,
    params: CallParams,
    body: Schema.Struct({ prompt: Schema.NullOr(Prompt) }),
    responses: { 200: { description: "The call with the caller's new version", schema: Call } },
    handler: ({ params, body }, context) => setPersonal(params.callId, context, "setPrompt", body.prompt)
  }),
  operation({
    operationId: "setMyNoteTemplate",
    method: "PUT",
    path: "/v1/users/me/note-template",
    summary: "Set the caller's note template: the sections their enhanced notes are laid out in, in every call",
    auth: "both",
    scopes: write,
    body: NoteTemplate,
    responses: { 200: { description: "The template", schema: NoteTemplate } },
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const principal = yield* principalOf(context)
        yield* Effect.orDie(setTemplate(principal.userId, body))
        return body
      })
  }),
  operation({
    operationId: "getMyNoteTemplate",
    method: "GET",
    path: "/v1/users/me/note-template",
    summary: "The caller's note template",
    auth: "both",
    scopes: read,
    responses: { 200: { description: "The template", schema: NoteTemplate }, 404: { description: "No template set" } },
    handler: (_, context) =>
      Effect.gen(function* () {
        const principal = yield* principalOf(context)
        const template = yield* Effect.orDie(templateOf(principal.userId))
        return template ?? (yield* reject("not_found", "No note template set"))
      })
  }),
  operation({
    operationId: "deleteMyNoteTemplate",
    method: "DELETE",
    path: "/v1/users/me/note-template",
    summary: "Remove the caller's note template (their notes go back to the plain layout)",
    auth: "both",
    scopes: write,
    responses: { 204: { description: "Removed" } },
    handler: (_, context) => Effect.flatMap(principalOf(context), (principal) => Effect.orDie(setTemplate(principal.userId, null)))
  })
]
