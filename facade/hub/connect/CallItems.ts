/**
 * What a call gives a vendor resource to push: the caller's own version of
 * its action items as tasks (records, messages), or its notes as one
 * document (summary, key points, enhanced notes and action items in
 * Markdown). Keys are the call's and the item's, so pushing a call again
 * answers what was pushed before.
 */
import { Effect } from "effect"
import type { PushItem } from "../../../actors/hub/connections/VendorItems.ts"
import type { ResourceVendor } from "../../../actors/hub/connections/VendorShapes.ts"
import type { Call } from "../../../actors/hub/CallView.ts"
import { reject } from "../../../runtime/Rejection.ts"
import type { RequestContext } from "../../Operation.ts"
import { callView, onCallUuid } from "../calls/CallAccess.ts"

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)

export const notesDocument = (call: Call): PushItem => {
  const sections = [
    call.summary ? `## Summary\n\n${call.summary}` : "",
    call.keyPoints.length > 0 ? `## Key points\n\n${call.keyPoints.map((point) => `- ${point}`).join("\n")}` : "",
    call.enhancedNotes ? `## Notes\n\n${call.enhancedNotes}` : "",
    call.actionItems.length > 0
      ? `## Action items\n\n${call.actionItems
          .map((item) => `- [ ] ${item.text}${item.owner ? ` (${item.owner})` : ""}${item.dueDate ? `, due ${item.dueDate}` : ""}`)
          .join("\n")}`
      : ""
  ]
  return {
    key: `${call.uuid}:notes`,
    title: clip(call.name, 500),
    description: sections.filter((section) => section !== "").join("\n\n"),
    owner: null,
    dueDate: null
  }
}

/** The items of the call for `vendor` (its action items, or for the documentation tool its notes). */
export const itemsFromCall = (
  context: RequestContext,
  workspaceId: string,
  vendor: ResourceVendor,
  callUuid: string,
  actionItemIds: ReadonlyArray<string> | undefined
) =>
  Effect.gen(function* () {
    const unknownCall = () => reject("not_found", "No such call in this workspace", [{ path: "body.callUuid", message: "unknown call" }])
    const access = yield* Effect.mapError(onCallUuid(context, callUuid, "member"), (error) =>
      (error._tag === "Rejection" && error.code === "not_found") || error._tag === "HubRecordingNotFound" ? unknownCall() : error
    )
    const call = yield* callView(access)
    if (call.workspaceId !== workspaceId) return yield* unknownCall()
    if (vendor === "docspace") return [notesDocument(call)]
    const chosen = yield* Effect.forEach(actionItemIds ?? call.actionItems.map((item) => item.id), (id, index) => {
      const item = call.actionItems.find((candidate) => candidate.id === id)
      return item
        ? Effect.succeed(item)
        : Effect.fail(
            reject("not_found", `No action item ${id} in your version of this call`, [
              { path: `body.actionItemIds[${index}]`, message: "unknown" }
            ])
          )
    })
    return chosen.map(
      (item): PushItem => ({
        key: `${call.uuid}:${item.id}`,
        title: clip(item.text, 500),
        description: `Action item from the call "${call.name}".`,
        owner: item.assigneeEmail ?? item.owner ?? null,
        dueDate: item.dueDate && /^\d{4}-\d{2}-\d{2}$/.test(item.dueDate) ? item.dueDate : null
      })
    )
  })
