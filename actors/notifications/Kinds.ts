/**
 * What people are notified of by e-mail, and how by default. A kind spans
 * services (a mention in a task comment and in a feature request comment are
 * both `mention`); each service's in-app reasons map onto these kinds.
 */
import { Schema } from "effect"

export const notificationKinds = [
  "mention",
  "assignment",
  "comment",
  "status_change",
  "request_completed",
  "merge",
  "new_request",
  "watching",
  "due",
  "shared",
  "notes_ready"
] as const
export const NotificationKind = Schema.Literals(notificationKinds).annotate({
  description:
    "mention, assignment, comment (on something you watch or follow), status_change, request_completed (a request you voted for or follow shipped), merge, new_request, watching (you were added to something), due (due soon or overdue), shared (a wiki page was shared with you), notes_ready (a meeting's notes are ready for you)"
})
export type NotificationKind = typeof NotificationKind.Type

export const DeliveryMode = Schema.Literals(["instant", "daily", "weekly", "off"]).annotate({
  description: "instant: one e-mail each; daily / weekly: in one digest at 08:00 your time (weekly: on Mondays); off: no e-mail"
})
export type DeliveryMode = typeof DeliveryMode.Type

export const areas = ["pm", "wiki", "feedback", "hub"] as const
export const Area = Schema.Literals(areas)
export type Area = typeof Area.Type

/** Mentions and assignments at once; a request you wait for reaching "completed" too (the loop's whole point); the rest daily. */
export const defaultModes: Readonly<Record<NotificationKind, Exclude<DeliveryMode, "off">>> = {
  mention: "instant",
  assignment: "instant",
  comment: "daily",
  status_change: "daily",
  request_completed: "instant",
  merge: "daily",
  new_request: "daily",
  watching: "daily",
  due: "daily",
  shared: "daily",
  notes_ready: "daily"
}

/** pm's in-app reasons (actors/pm/ReferenceData.ts). */
export const pmKinds: Readonly<Record<string, NotificationKind>> = {
  assigned: "assignment",
  mentioned: "mention",
  status_changed: "status_change",
  commented: "comment",
  watching: "watching",
  due_soon: "due"
}

/** feedback's in-app reasons (actors/feedback/BoardLog.ts). */
export const feedbackKinds: Readonly<Record<string, NotificationKind>> = {
  new_request: "new_request",
  status_changed: "status_change",
  commented: "comment",
  mentioned: "mention",
  merged: "merge",
  shipped: "request_completed"
}

/** The kinds the wiki's sources write (Sources.ts: a mention or a reply in a page comment, a page shared with you). */
export const wikiKinds: ReadonlyArray<NotificationKind> = ["mention", "comment", "shared"]

/** The kinds the hub's sources write (Sources.ts: your notes of a call are ready, an action item assigned to you). */
export const hubKinds: ReadonlyArray<NotificationKind> = ["notes_ready", "assignment"]

export const areaNames: Readonly<Record<Area, string>> = { pm: "Work", wiki: "Wiki", feedback: "Feedback", hub: "Meetings" }

/** The areas whose notifications are mailed as each kind, for people choosing how. */
export const kindAreas = (kind: NotificationKind): ReadonlyArray<Area> => [
  ...(Object.values(pmKinds).includes(kind) ? (["pm"] as const) : []),
  ...(wikiKinds.includes(kind) ? (["wiki"] as const) : []),
  ...(Object.values(feedbackKinds).includes(kind) ? (["feedback"] as const) : []),
  ...(hubKinds.includes(kind) ? (["hub"] as const) : [])
]
