/**
 * Project management's static reference data: the vocabularies the rest of
 * pm validates against and clients render (roles, status types, priorities,
 * custom field types, relationship and view types, notification reasons,
 * colors, time zones, locales, formats…). Where another module owns a
 * vocabulary, the list here is derived from it, so the two cannot drift.
 */
import { Schema } from "effect"
import { Role } from "../identity/Workspace.ts"
import type { ChangeScope, Notify } from "./ChangeLog.ts"
import { defaultColors, defaultStatuses } from "./Statuses.ts"
import { defaultFeatures, FieldType, Priority, priorityRank, StatusType } from "./WorkRecords.ts"

// ---------------------------------------------------------------------------
// Vocabularies owned here (other modules import them)

export const notificationReasons = [
  "assigned",
  "mentioned",
  "status_changed",
  "commented",
  "watching",
  "due_soon"
] as const satisfies ReadonlyArray<Notify["reason"]>
export const NotificationReason = Schema.Literals(notificationReasons)
export type NotificationReason = typeof NotificationReason.Type

export const relationshipTypes = ["blocks", "blocked-by", "relates-to", "duplicates"] as const
export const RelationshipType = Schema.Literals(relationshipTypes)

export const viewTypes = ["list", "board", "calendar", "table", "timeline", "gantt", "workload", "form", "whiteboard"] as const
export const ViewType = Schema.Literals(viewTypes)
export type ViewType = typeof ViewType.Type

export const streamScopes = ["workspace", "space", "list", "task"] as const satisfies ReadonlyArray<ChangeScope>

export const teamRoles = ["lead", "member"] as const
export const TeamRole = Schema.Literals(teamRoles)
export type TeamRole = typeof TeamRole.Type

export const themes = ["system", "light", "dark"] as const
export const Theme = Schema.Literals(themes)

export const timeFormats = ["12h", "24h"] as const
export const TimeFormat = Schema.Literals(timeFormats)

export const weekStartDays = ["sunday", "monday", "saturday"] as const
export const WeekStartDay = Schema.Literals(weekStartDays)

export const dateFormats = ["MM/DD/YYYY", "DD/MM/YYYY", "YYYY-MM-DD", "DD.MM.YYYY", "MMM D, YYYY", "D MMM YYYY"] as const
export const DateFormat = Schema.Literals(dateFormats)

export const locales = [
  "en-US",
  "en-GB",
  "de-DE",
  "fr-FR",
  "es-ES",
  "it-IT",
  "pt-BR",
  "nl-NL",
  "sv-SE",
  "pl-PL",
  "ja-JP",
  "zh-CN",
  "ko-KR"
] as const
export const Locale = Schema.Literals(locales)

export const timeZones: ReadonlyArray<string> = ["UTC", ...Intl.supportedValuesOf("timeZone").filter((zone) => zone !== "UTC")]
const timeZoneSet = new Set(timeZones)
/** Listed zones, and the aliases ICU resolves (e.g. Asia/Kolkata for the listed Asia/Calcutta). */
const isTimeZone = (zone: string) => {
  if (timeZoneSet.has(zone)) return true
  if (zone.length > 64 || !/^[A-Za-z][\w+-]*(\/[\w+-]+)*$/.test(zone)) return false
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone })
    return true
  } catch {
    return false
  }
}
export const TimeZone = Schema.String.check(
  Schema.makeFilter((zone: string) => isTimeZone(zone) || "an IANA time zone, e.g. Europe/Berlin (see /v1/reference-data/time-zones)")
).annotate({ examples: ["Europe/Berlin"] })

export const colorPalette = [
  { id: "gray", name: "Gray", hex: "#87909e" },
  { id: "red", name: "Red", hex: "#e5484d" },
  { id: "orange", name: "Orange", hex: "#f76808" },
  { id: "amber", name: "Amber", hex: "#ffb224" },
  { id: "yellow", name: "Yellow", hex: "#f5d90a" },
  { id: "lime", name: "Lime", hex: "#99d52a" },
  { id: "green", name: "Green", hex: "#30a46c" },
  { id: "teal", name: "Teal", hex: "#12a594" },
  { id: "cyan", name: "Cyan", hex: "#05a2c2" },
  { id: "blue", name: "Blue", hex: "#0091ff" },
  { id: "indigo", name: "Indigo", hex: "#3e63dd" },
  { id: "violet", name: "Violet", hex: "#7b68ee" },
  { id: "purple", name: "Purple", hex: "#8e4ec6" },
  { id: "pink", name: "Pink", hex: "#d6409f" },
  { id: "brown", name: "Brown", hex: "#ad7f58" },
  { id: "black", name: "Black", hex: "#202020" }
] as const

export const userStatusPresets = [
  { id: "meeting", text: "In a meeting", emoji: "📅", defaultMinutes: 60 },
  { id: "commuting", text: "Commuting", emoji: "🚌", defaultMinutes: 30 },
  { id: "focusing", text: "Focusing", emoji: "🎧", defaultMinutes: 120 },
  { id: "lunch", text: "Out for lunch", emoji: "🍽️", defaultMinutes: 60 },
  { id: "sick", text: "Out sick", emoji: "🤒", defaultMinutes: null },
  { id: "vacation", text: "On vacation", emoji: "🌴", defaultMinutes: null }
] as const
export const UserStatusPreset = Schema.Literals(userStatusPresets.map((p) => p.id))

// ---------------------------------------------------------------------------
// The sets, as served (`/v1/reference-data/<id>`)

const Item = <F extends Schema.Struct.Fields>(identifier: string, fields: F) => Schema.Struct(fields).annotate({ identifier })

export const AccessLevel = Item("AccessLevel", {
  id: Role,
  name: Schema.String,
  rank: Schema.Number,
  description: Schema.String,
  canWrite: Schema.Boolean,
  canAdminister: Schema.Boolean
})
export const StatusTypeInfo = Item("StatusTypeInfo", {
  id: StatusType,
  name: Schema.String,
  description: Schema.String,
  finished: Schema.Boolean,
  defaultColor: Schema.String
})
export const DefaultStatus = Item("DefaultStatus", { name: Schema.String, type: StatusType, color: Schema.String, position: Schema.Number })
export const PriorityInfo = Item("PriorityInfo", { id: Priority, name: Schema.String, rank: Schema.Number, color: Schema.String })
export const CustomFieldTypeInfo = Item("CustomFieldTypeInfo", {
  id: FieldType,
  name: Schema.String,
  description: Schema.String,
  valueType: Schema.String,
  config: Schema.Array(Schema.String)
})
export const RelationshipTypeInfo = Item("RelationshipTypeInfo", {
  id: RelationshipType,
  name: Schema.String,
  inverse: RelationshipType,
  description: Schema.String
})
export const ViewTypeInfo = Item("ViewTypeInfo", { id: ViewType, name: Schema.String, description: Schema.String })
export const NotificationReasonInfo = Item("NotificationReasonInfo", {
  id: NotificationReason,
  name: Schema.String,
  description: Schema.String
})
export const ColorInfo = Item("ColorInfo", { id: Schema.String, name: Schema.String, hex: Schema.String })
export const TimeZoneInfo = Item("TimeZoneInfo", { id: Schema.String, utcOffset: Schema.String, utcOffsetMinutes: Schema.Number })
export const LocaleInfo = Item("LocaleInfo", { id: Locale, name: Schema.String, nativeName: Schema.String })
export const FormatInfo = Item("FormatInfo", { id: Schema.String, name: Schema.String, example: Schema.String })
export const CurrencyInfo = Item("CurrencyInfo", { id: Schema.String, name: Schema.String, symbol: Schema.String })
export const FeatureInfo = Item("SpaceFeatureInfo", { id: Schema.String, name: Schema.String, enabledByDefault: Schema.Boolean })
export const HierarchyLevel = Item("HierarchyLevel", {
  id: Schema.String,
  name: Schema.String,
  shortIdPrefix: Schema.NullOr(Schema.String),
  parent: Schema.NullOr(Schema.String)
})
export const StreamScopeInfo = Item("StreamScopeInfo", { id: Schema.String, description: Schema.String })
export const TeamRoleInfo = Item("TeamRoleInfo", { id: TeamRole, name: Schema.String, description: Schema.String })
export const ThemeInfo = Item("ThemeInfo", { id: Schema.String, name: Schema.String })
export const UserStatusPresetInfo = Item("UserStatusPresetInfo", {
  id: Schema.String,
  text: Schema.String,
  emoji: Schema.String,
  defaultMinutes: Schema.NullOr(Schema.Number)
})

const title = (id: string) => id.charAt(0).toUpperCase() + id.slice(1).replace(/[-_]/g, " ")

const sample = new Date(Date.UTC(2026, 10, 21, 15, 4))
const formatExample = (format: string) => {
  const pad = (n: number) => String(n).padStart(2, "0")
  const month = sample.toLocaleString("en-US", { month: "short", timeZone: "UTC" })
  return format
    .replace("YYYY", String(sample.getUTCFullYear()))
    .replace("MMM", month)
    .replace("MM", pad(sample.getUTCMonth() + 1))
    .replace("DD", pad(sample.getUTCDate()))
    .replace(/\bD\b/, String(sample.getUTCDate()))
}

const offsetOf = (zone: string, at: Date) => {
  const part =
    new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" })
      .formatToParts(at)
      .find((p) => p.type === "timeZoneName")?.value ?? "GMT"
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(part)
  const minutes = match ? (match[1] === "-" ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3])) : 0
  const sign = minutes < 0 ? "-" : "+"
  const abs = Math.abs(minutes)
  return {
    utcOffset: `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`,
    utcOffsetMinutes: minutes
  }
}

const languageNames = new Intl.DisplayNames(["en"], { type: "language" })
const currencyNames = new Intl.DisplayNames(["en"], { type: "currency" })
const symbolOf = (code: string) => {
  try {
    return (
      new Intl.NumberFormat("en-US", { style: "currency", currency: code, currencyDisplay: "narrowSymbol" })
        .formatToParts(0)
        .find((p) => p.type === "currency")?.value ?? code
    )
  } catch {
    return code
  }
}

const roleInfo = {
  owner: "Everything an admin can, plus deleting the workspace and transferring ownership",
  admin: "Manage members, teams, settings and every space, including private ones",
  member: "Create and change spaces, lists and tasks they can see",
  viewer: "Read only: sees what members see, changes nothing"
} as const

const fieldTypeInfo: Record<typeof FieldType.Type, { description: string; valueType: string; config: ReadonlyArray<string> }> = {
  text: { description: "Free text", valueType: "string", config: ["maxLength"] },
  number: { description: "A number", valueType: "number", config: ["precision", "min", "max"] },
  date: { description: "A date or date-time", valueType: "string (ISO 8601)", config: ["includeTime"] },
  dropdown: { description: "One option out of a list", valueType: "string (option id)", config: ["options"] },
  labels: { description: "Any number of options out of a list", valueType: "array of option ids", config: ["options"] },
  checkbox: { description: "Yes or no", valueType: "boolean", config: [] },
  email: { description: "An e-mail address", valueType: "string", config: [] },
  url: { description: "A web address", valueType: "string", config: [] },
  currency: { description: "An amount of money in one currency", valueType: "number", config: ["currency", "precision"] },
  phone: { description: "A phone number", valueType: "string", config: [] },
  rating: { description: "A rating from 0 to max", valueType: "integer", config: ["max"] },
  users: { description: "Workspace members", valueType: "array of user ids", config: ["multiple"] }
}

const features: Record<keyof typeof defaultFeatures, string> = {
  priorities: "Priorities",
  dueDates: "Due dates",
  startDates: "Start dates",
  timeEstimates: "Time estimates",
  tags: "Tags",
  customFields: "Custom fields",
  checklists: "Checklists",
  timeTracking: "Time tracking",
  multipleAssignees: "Multiple assignees"
}

const viewTypeDescriptions: Record<ViewType, string> = {
  list: "Tasks grouped in rows",
  board: "Kanban columns by status (or another field)",
  calendar: "Tasks on their dates",
  table: "A spreadsheet of tasks and fields",
  timeline: "Tasks along time, grouped by a field",
  gantt: "Tasks as bars with dependencies",
  workload: "Capacity per assignee",
  form: "A form that creates tasks",
  whiteboard: "A free-form canvas"
}

export interface ReferenceSet {
  readonly id: string
  readonly name: string
  readonly description: string
  readonly item: Schema.Top
  readonly items: () => ReadonlyArray<unknown>
}

const set = (id: string, description: string, item: Schema.Top, items: () => ReadonlyArray<unknown>, name = title(id)): ReferenceSet => ({
  id,
  name,
  description,
  item,
  items
})

/** Every reference set, in catalogue order. */
export const referenceSets: ReadonlyArray<ReferenceSet> = [
  set("access-levels", "Workspace roles, highest first: what each may do", AccessLevel, () =>
    Role.literals.map((id, index, all) => ({
      id,
      name: title(id),
      rank: all.length - index,
      description: roleInfo[id],
      canWrite: id !== "viewer",
      canAdminister: id === "owner" || id === "admin"
    }))
  ),
  set("status-types", "The kinds of workflow status every status belongs to", StatusTypeInfo, () =>
    StatusType.literals.map((id) => ({
      id,
      name: title(id),
      finished: id === "done" || id === "closed",
      defaultColor: defaultColors[id],
      description: {
        open: "Not started; new tasks get the first open status",
        active: "In progress",
        done: "Finished",
        closed: "Finished and put away"
      }[id]
    }))
  ),
  set("default-statuses", "The workflow a new space starts with", DefaultStatus, () =>
    defaultStatuses.map((s, index) => ({ name: s.name, type: s.type, color: s.color ?? defaultColors[s.type], position: index + 1 }))
  ),
  set("priorities", "Task priorities, most urgent first", PriorityInfo, () =>
    Priority.literals.map((id) => ({
      id,
      name: title(id),
      rank: priorityRank[id],
      color: { urgent: "#e5484d", high: "#ffb224", normal: "#0091ff", low: "#87909e" }[id]
    }))
  ),
  set("custom-field-types", "The value kinds a custom field can hold, and their configuration keys", CustomFieldTypeInfo, () =>
    FieldType.literals.map((id) => ({ id, name: title(id), ...fieldTypeInfo[id] }))
  ),
  set("relationship-types", "How two tasks can be related; each type names its inverse", RelationshipTypeInfo, () => [
    { id: "blocks", name: "Blocks", inverse: "blocked-by", description: "This task must finish before the other can" },
    { id: "blocked-by", name: "Blocked by", inverse: "blocks", description: "This task waits for the other" },
    { id: "relates-to", name: "Relates to", inverse: "relates-to", description: "The tasks are connected" },
    { id: "duplicates", name: "Duplicates", inverse: "duplicates", description: "The tasks describe the same work" }
  ]),
  set("view-types", "The ways a workspace, space, folder or list can be viewed", ViewTypeInfo, () =>
    viewTypes.map((id) => ({ id, name: title(id), description: viewTypeDescriptions[id] }))
  ),
  set(
    "notification-reasons",
    "Why a user is notified; each can be muted in the user's notification preferences",
    NotificationReasonInfo,
    () =>
      notificationReasons.map((id) => ({
        id,
        name: title(id),
        description: {
          assigned: "You were assigned to a task",
          mentioned: "Someone mentioned you",
          status_changed: "A task you are involved in changed status",
          commented: "Someone commented on a task you are involved in",
          watching: "Something you watch changed",
          due_soon: "A task of yours is due soon"
        }[id]
      }))
  ),
  set("colors", "The color palette offered for spaces, statuses, tags and teams", ColorInfo, () => colorPalette),
  set("time-zones", "IANA time zones with their current UTC offset", TimeZoneInfo, () => {
    const now = new Date()
    return timeZones.map((id) => ({ id, ...offsetOf(id, now) }))
  }),
  set("locales", "User interface languages", LocaleInfo, () =>
    locales.map((id) => ({
      id,
      name: languageNames.of(id) ?? id,
      nativeName: new Intl.DisplayNames([id], { type: "language" }).of(id) ?? id
    }))
  ),
  set("date-formats", "How dates are shown", FormatInfo, () => dateFormats.map((id) => ({ id, name: id, example: formatExample(id) }))),
  set("time-formats", "How times of day are shown", FormatInfo, () => [
    { id: "12h", name: "12-hour", example: "3:04 PM" },
    { id: "24h", name: "24-hour", example: "15:04" }
  ]),
  set("week-start-days", "The first day of the week in calendars", FormatInfo, () =>
    weekStartDays.map((id) => ({ id, name: title(id), example: { sunday: "Sun–Sat", monday: "Mon–Sun", saturday: "Sat–Fri" }[id] }))
  ),
  set("currencies", "ISO 4217 currencies for currency custom fields", CurrencyInfo, () =>
    Intl.supportedValuesOf("currency").map((id) => ({ id, name: currencyNames.of(id) ?? id, symbol: symbolOf(id) }))
  ),
  set("space-features", "Task features a space can switch on or off", FeatureInfo, () =>
    (Object.keys(features) as Array<keyof typeof features>).map((id) => ({ id, name: features[id], enabledByDefault: defaultFeatures[id] }))
  ),
  set("hierarchy-levels", "The levels of the work hierarchy, their parents and short-id prefixes", HierarchyLevel, () => [
    { id: "workspace", name: "Workspace", shortIdPrefix: null, parent: null },
    { id: "space", name: "Space", shortIdPrefix: "S", parent: "workspace" },
    { id: "folder", name: "Folder", shortIdPrefix: "F", parent: "space" },
    { id: "list", name: "List", shortIdPrefix: "L", parent: "space or folder" },
    { id: "task", name: "Task", shortIdPrefix: "T", parent: "list (or a parent task)" }
  ]),
  set("stream-scopes", "What a live-update subscription can follow; a broader scope sees everything inside it", StreamScopeInfo, () => [
    { id: "workspace", description: "Every change in the workspace the caller may see" },
    { id: "space", description: "Changes to the space and its folders, lists and tasks" },
    { id: "list", description: "Changes to the list and its tasks" },
    { id: "task", description: "Changes to one task (comments, fields, assignees…)" }
  ]),
  set("team-roles", "Roles within a team", TeamRoleInfo, () => [
    { id: "lead", name: "Lead", description: "Leads the team; shown first" },
    { id: "member", name: "Member", description: "Belongs to the team" }
  ]),
  set("themes", "User interface themes", ThemeInfo, () => themes.map((id) => ({ id, name: title(id) }))),
  set("user-status-presets", "Suggested user statuses, with how long they last by default", UserStatusPresetInfo, () => userStatusPresets)
]
