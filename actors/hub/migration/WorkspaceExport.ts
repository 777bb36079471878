/**
 * What a workspace migration carries: the workspace's hub data, read from
 * its owners (the workspace and invitation actors, the call actors, the chat
 * library, the workflow actor, the connection and broker modules), as a list
 * of items, each imported into the target through the target's public
 * operations. Per workspace the hub holds: settings, members and pending
 * invitations, recordings (the call: name, attendees, transcript, media, the
 * migrating owner's own notes and prompt; summaries, key points and action
 * items are regenerated there from these), ingested chat conversations,
 * workflows, vendor connections and broker tenants (their credentials never
 * leave this deployment: they are listed, to connect again there).
 * Calendars, note templates and personal webhooks belong to users, not to
 * the workspace: they move with the account.
 */
import { Effect } from "effect"
import { BlobStore } from "../../../persistence/BlobStore.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { usersByIds } from "../../identity/IdentityQueries.ts"
import { invitationsOf } from "../../pm/Invitations.ts"
import { Workspace } from "../../identity/Workspace.ts"
import { listTenants } from "../broker/Tenants.ts"
import { listWorkflows } from "../broker/WorkflowActor.ts"
import { HubCall } from "../CallActor.ts"
import { recordingRows } from "../CallRecords.ts"
import { documentWithMessages, MAX_MESSAGES_PER_REQUEST, summariesOf } from "../chat/ChatDocuments.ts"
import { listSeenBy } from "../connections/Connections.ts"
import type { MigrationStep } from "../WorkspaceMigrations.ts"
import { originalKey } from "../Processing.ts"
import { callTarget, type Target, type TargetReply } from "./TargetDeployment.ts"

export interface ExportItem {
  readonly item: string
  readonly name: string
  /** Imports the item into the target; answers its step (a failure here is recorded as the item's failed step). */
  readonly importInto: (target: Target) => Effect.Effect<MigrationStep, unknown, any>
}

const hub = (target: Target) => `/hub/v1/workspaces/${target.workspaceId}`

const stepOf = (item: string, name: string, reply: TargetReply, imported = "imported"): MigrationStep => ({
  item,
  name,
  // Already a member or already invited there: nothing left to carry over.
  ok: reply.ok || reply.status === 409,
  status: reply.status,
  detail: reply.ok ? imported : reply.status === 409 ? `already there: ${reply.message}` : reply.message
})

/** Not sent: the item's secret stays here; the step says what to do at the target. */
const listedOnly = (item: string, name: string, detail: string): ExportItem => ({
  item,
  name,
  importInto: () => Effect.succeed({ item, name, ok: true, status: null, detail })
})

const settingsItem = (settings: { preferredIntegrationTarget: unknown; customPrompt: unknown }): ExportItem => ({
  item: "settings",
  name: "settings",
  importInto: (target) =>
    Effect.map(
      callTarget(target, "PATCH", `${hub(target)}/settings`, {
        json: { preferredIntegrationTarget: settings.preferredIntegrationTarget, customPrompt: settings.customPrompt }
      }),
      (reply) => stepOf("settings", "settings", reply)
    )
})

const personItem = (kind: "member" | "invitation", email: string, role: string): ExportItem => {
  const item = `${kind}:${email}`
  const name = `${kind} ${email} (${role})`
  return {
    item,
    name,
    importInto: (target) =>
      Effect.map(callTarget(target, "POST", `${hub(target)}/invitations`, { json: { email, role } }), (reply) => stepOf(item, name, reply))
  }
}

const chatItem = (workspaceId: string, documentId: string, title: string): ExportItem => {
  const item = `chat:${documentId}`
  const name = `chat conversation "${title}"`
  return {
    item,
    name,
    importInto: (target) =>
      Effect.gen(function* () {
        const document = yield* Effect.orDie(documentWithMessages(workspaceId, documentId))
        const messages = document.messages.map((message) => ({
          ...(message.externalId !== null ? { externalId: message.externalId } : {}),
          author: message.author,
          authorEmail: message.authorEmail,
          sentAt: message.sentAt,
          text: message.text
        }))
        const created = yield* callTarget(target, "POST", `${hub(target)}/chat-documents`, {
          json: {
            source: document.source,
            externalId: document.externalId,
            title: document.title,
            channel: document.channel,
            url: document.url,
            messages: messages.slice(0, MAX_MESSAGES_PER_REQUEST)
          }
        })
        if (!created.ok) return stepOf(item, name, created)
        const targetId = (created.body as { id: string }).id
        for (let from = MAX_MESSAGES_PER_REQUEST; from < messages.length; from += MAX_MESSAGES_PER_REQUEST) {
          const appended = yield* callTarget(target, "POST", `${hub(target)}/chat-documents/${targetId}/messages`, {
            json: { messages: messages.slice(from, from + MAX_MESSAGES_PER_REQUEST) }
          })
          if (!appended.ok) return stepOf(item, name, appended)
        }
        return stepOf(item, name, created, `imported (${messages.length} messages)`)
      })
  }
}

/** The call: created there with its transcript and attendees, then its media and the owner's own notes and prompt. */
const recordingItem = (recordingId: number, recordingName: string, userId: string): ExportItem => {
  const item = `recording:${recordingId}`
  const name = `recording "${recordingName}"`
  return {
    item,
    name,
    importInto: (target) =>
      Effect.gen(function* () {
        const actors = yield* ActorSystem
        const recording = yield* actors.ask(HubCall, String(recordingId), "recording", {})
        const segments = yield* actors.ask(HubCall, String(recordingId), "transcript", {})
        const created = yield* callTarget(target, "POST", "/hub/v1/recordings", {
          json: {
            workspaceId: target.workspaceId,
            name: recording.name,
            ...(segments.length > 0 ? { transcript: { format: "segments", segments } } : {}),
            attendeeEmails: recording.attendees.map((attendee) => attendee.email)
          }
        })
        if (!created.ok) return stepOf(item, name, created)
        const there = created.body as { id: number; callId: number }
        const carried = [`transcript (${segments.length} segments)`]
        const original = recording.media ? yield* Effect.orDie((yield* BlobStore).get(originalKey(recordingId))) : undefined
        if (recording.media && original) {
          const uploaded = yield* callTarget(target, "PUT", `/hub/v1/recordings/${there.id}/media`, {
            bytes: original.bytes,
            contentType: recording.media.contentType
          })
          if (!uploaded.ok) return { ...stepOf(item, name, uploaded), detail: `created as ${there.id}; media refused: ${uploaded.message}` }
          carried.push("media")
        }
        const call = yield* Effect.option(
          actors.ask(HubCall, String(recordingId), "view", { userId, workspacePrompt: null, calendarPrompt: null })
        )
        const mine = call._tag === "Some" ? call.value : undefined
        for (const [field, value, path] of [
          ["notes", mine?.userNotes, "my-notes"],
          ["prompt", mine?.myPrompt, "my-prompt"]
        ] as const) {
          if (!value) continue
          const set = yield* callTarget(target, "PUT", `/hub/v1/calls/${there.callId}/${path}`, { json: { [field]: value } })
          if (!set.ok) return { ...stepOf(item, name, set), detail: `created as ${there.id}; your ${field} refused: ${set.message}` }
          carried.push(`your ${field}`)
        }
        return stepOf(item, name, created, `imported as recording ${there.id}: ${carried.join(", ")}`)
      })
  }
}

/**
 * The workspace's items, in import order (settings first: a target that
 * refuses them refuses everything). `userId` is the migrating owner.
 */
export const exportWorkspace = (workspaceId: string, userId: string) =>
  Effect.gen(function* () {
    const actors = yield* ActorSystem
    const ws = yield* Workspace.client(actors)(workspaceId).view({ by: userId })
    const users = yield* Effect.orDie(usersByIds(ws.members.map((member) => member.userId)))
    const invitations = (yield* Effect.orDie(invitationsOf(workspaceId, { status: "pending" }))).toSorted(
      (a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id)
    )
    const recordings = yield* Effect.orDie(recordingRows("r.workspace_id = $1 ORDER BY r.id", [workspaceId]))
    const chats = yield* Effect.orDie(summariesOf(workspaceId))
    const workflows = yield* listWorkflows(workspaceId)
    // Other users' calendars are theirs, not the workspace's: the owner lists only their own.
    const connections = yield* Effect.orDie(listSeenBy(workspaceId, userId))
    const tenants = yield* listTenants(workspaceId)
    const items: Array<ExportItem> = [
      settingsItem(ws.settings),
      ...ws.members
        .filter((member) => member.role !== "owner" && member.userId !== userId)
        .flatMap((member) => {
          const email = users.get(member.userId)?.email
          return email ? [personItem("member", email, member.role)] : []
        }),
      ...invitations.map((invitation) => personItem("invitation", invitation.email, invitation.role)),
      ...recordings.map((recording) => recordingItem(recording.id, recording.name, userId)),
      ...[...chats].sort((a, b) => a.createdAt.localeCompare(b.createdAt)).map((chat) => chatItem(workspaceId, chat.id, chat.title)),
      ...workflows.map(
        (workflow): ExportItem => ({
          item: `workflow:${workflow.id}`,
          name: `workflow "${workflow.name}"`,
          importInto: (target) =>
            Effect.map(
              callTarget(target, "POST", `${hub(target)}/workflows`, {
                json: {
                  name: workflow.name,
                  trigger: workflow.trigger,
                  // Connections are this deployment's: there, each step uses the workspace's connection of its kind.
                  steps: workflow.steps.map(({ connectionId: _, ...step }) => step),
                  enabled: workflow.enabled
                }
              }),
              (reply) => stepOf(`workflow:${workflow.id}`, `workflow "${workflow.name}"`, reply)
            )
        })
      ),
      ...connections.map((connection) =>
        listedOnly(
          `connection:${connection.id}`,
          `connection "${connection.name}" (${connection.vendor})`,
          `not carried: its credential stays here; connect ${connection.vendor} at ${connection.baseUrl} again at the target`
        )
      ),
      ...tenants.map((tenant) =>
        listedOnly(
          `tenant:${tenant.id}`,
          `broker tenant "${tenant.name}" (${tenant.tenantId})`,
          "not carried: its signing secret stays here; map the tenant again at the target and give the broker the new secret"
        )
      )
    ]
    return items
  })
