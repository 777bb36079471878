/**
 * Project management's settings of a workspace, beside the identity
 * workspace (name, owner, members): general preferences (time zone, week
 * start, formats), features on/off, default views per level, the invitation
 * and sharing policy, branding (color, tagline, logo in the BlobStore) and
 * the seat limit. One row per workspace in `pm_workspace_settings`
 * (absent: the defaults), written by the workspace's `PmOrganization`
 * actor; each write is a `workspace.*` change event.
 *
 * Features and policy are enforced where they apply: public sharing (share
 * links and their public reads), guests, the invite link and joining by
 * e-mail domain, who may invite, allowed invitation domains, invitation
 * expiry, the longest share-link lifetime and the seat limit. The time zone
 * and week start define the days and weeks of the workspace statistics.
 */
import { Effect, Schema, Struct } from "effect"
import { query } from "../../persistence/Sql.ts"
import * as SqlSchema from "../../persistence/SqlSchema.ts"
import { NoWorkspaceLogo, NotASetting, OrganizationRefused } from "./OrganizationErrors.ts"
import { Timestamp } from "../Fields.ts"
import { change } from "./Changes.ts"
import { command } from "./WorkActor.ts"
import { AssignableRole } from "../identity/Workspace.ts"
import { DateFormat, Locale, TimeFormat, TimeZone, ViewType, WeekStartDay } from "./ReferenceData.ts"

export const General = Schema.Struct({
  timeZone: TimeZone,
  weekStart: WeekStartDay,
  dateFormat: DateFormat,
  timeFormat: TimeFormat,
  locale: Locale,
  description: Schema.String.check(Schema.isMaxLength(2000))
}).annotate({
  identifier: "WorkspaceGeneralSettings",
  description: "Workspace-wide preferences: its days and weeks (statistics use them), formats, language."
})
export type General = typeof General.Type

export const Features = Schema.Struct({
  publicSharing: Schema.Boolean.annotate({ description: "Members may share tasks by public link; off: links stop working" }),
  guests: Schema.Boolean.annotate({ description: "Admins may add guests (time-boxed members)" }),
  inviteLinks: Schema.Boolean.annotate({ description: "A shareable invite link may be used to join" }),
  domainJoin: Schema.Boolean.annotate({ description: "Users whose e-mail domain is in the auto-join domains may join by themselves" })
}).annotate({ identifier: "WorkspaceFeatures" })
export type Features = typeof Features.Type

export const DefaultViews = Schema.Struct({
  space: ViewType,
  folder: ViewType,
  list: ViewType,
  everything: ViewType
}).annotate({
  identifier: "WorkspaceDefaultViews",
  description: "The view a new space, folder or list (and the workspace-wide task view) opens with."
})
export type DefaultViews = typeof DefaultViews.Type

export const Domain = Schema.String.check(
  Schema.isMaxLength(253),
  Schema.isPattern(/^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i, {
    expected: "an e-mail domain such as example.com"
  })
)

export const Security = Schema.Struct({
  allowedEmailDomains: Schema.Array(Domain)
    .check(Schema.isMaxLength(50))
    .annotate({ description: "Invitations only to these domains (empty: any)" }),
  autoJoinDomains: Schema.Array(Domain)
    .check(Schema.isMaxLength(50))
    .annotate({ description: "Users of these domains may join by themselves (with domainJoin on)" }),
  autoJoinRole: AssignableRole.annotate({ description: "Role of users who join by domain or invite link default" }),
  membersCanInvite: Schema.Boolean.annotate({ description: "Members (not only admins) may invite, as members or viewers" }),
  invitationExpiryDays: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 90 })),
  maxShareLinkDays: Schema.NullOr(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 3650 }))).annotate({
    description: "Public links must expire within this many days (null: no limit)"
  })
}).annotate({ identifier: "WorkspaceSecurityPolicy" })
export type Security = typeof Security.Type

export const LogoInfo = Schema.Struct({ key: Schema.String, contentType: Schema.String, size: Schema.Number, updatedAt: Timestamp })
export type LogoInfo = typeof LogoInfo.Type

export const Branding = Schema.Struct({
  color: Schema.NullOr(Schema.String),
  tagline: Schema.String.check(Schema.isMaxLength(200))
}).annotate({ identifier: "WorkspaceBrandingSettings" })
export type Branding = typeof Branding.Type

export const Config = Schema.Struct({
  general: General,
  features: Features,
  defaultViews: DefaultViews,
  security: Security,
  branding: Branding,
  logo: Schema.NullOr(LogoInfo),
  seatLimit: Schema.NullOr(Schema.Number),
  updatedBy: Schema.NullOr(Schema.String),
  updatedAt: Schema.NullOr(Timestamp)
})
export type Config = typeof Config.Type

export const defaults = {
  general: {
    timeZone: "UTC",
    weekStart: "monday",
    dateFormat: "YYYY-MM-DD",
    timeFormat: "24h",
    locale: "en-US",
    description: ""
  } satisfies General,
  features: { publicSharing: true, guests: true, inviteLinks: true, domainJoin: false } satisfies Features,
  defaultViews: { space: "list", folder: "list", list: "list", everything: "list" } satisfies DefaultViews,
  security: {
    allowedEmailDomains: [],
    autoJoinDomains: [],
    autoJoinRole: "member",
    membersCanInvite: false,
    invitationExpiryDays: 7,
    maxShareLinkDays: null
  } satisfies Security,
  branding: { color: null, tagline: "" } satisfies Branding
}

/** The workspace's settings, defaults filled in. */
export const configOf = (workspaceId: string) =>
  Effect.map(
    query<{
      general: Partial<General>
      features: Partial<Features>
      defaultViews: Partial<DefaultViews>
      security: Partial<Security>
      branding: Partial<Branding>
      logo: LogoInfo | null
      seatLimit: number | null
      updatedBy: string | null
      updatedAt: string | null
    }>(
      `SELECT general, features, default_views AS "defaultViews", security, branding, logo, seat_limit AS "seatLimit", updated_by AS "updatedBy", updated_at AS "updatedAt"
         FROM pm_workspace_settings WHERE workspace_id = $1`,
      [workspaceId]
    ),
    (rows): Config => {
      const row = rows[0]
      return {
        general: { ...defaults.general, ...row?.general },
        features: { ...defaults.features, ...row?.features },
        defaultViews: { ...defaults.defaultViews, ...row?.defaultViews },
        security: { ...defaults.security, ...row?.security },
        branding: { ...defaults.branding, ...row?.branding },
        logo: row?.logo ?? null,
        seatLimit: row?.seatLimit ?? null,
        updatedBy: row?.updatedBy ?? null,
        updatedAt: row?.updatedAt ?? null
      }
    }
  )

export const Section = Schema.Literals(["general", "features", "defaultViews", "security", "branding"])
export type Section = typeof Section.Type
const sections = { general: General, features: Features, defaultViews: DefaultViews, security: Security, branding: Branding }

/** A change of some fields of one section (the sections' field names are distinct). */
export const SettingsPatch = Schema.Struct({
  ...General.fields,
  ...Features.fields,
  ...DefaultViews.fields,
  ...Security.fields,
  ...Branding.fields
}).mapFields(Struct.map(Schema.optionalKey))
const columnOf: Record<Section, string> = {
  general: "general",
  features: "features",
  defaultViews: "default_views",
  security: "security",
  branding: "branding"
}

/** Stores one section (whole, defaults merged by the caller). */
export const writeSection = (workspaceId: string, section: Section, value: object, by: string) =>
  query(
    `INSERT INTO pm_workspace_settings (workspace_id, ${columnOf[section]}, updated_by, updated_at) VALUES ($1, $2, $3, now())
     ON CONFLICT (workspace_id) DO UPDATE SET ${columnOf[section]} = excluded.${columnOf[section]}, updated_by = excluded.updated_by, updated_at = now()`,
    [workspaceId, value, by]
  )

export const writeLogo = (workspaceId: string, logo: LogoInfo | null, by: string) =>
  query(
    `INSERT INTO pm_workspace_settings (workspace_id, logo, updated_by, updated_at) VALUES ($1, $2, $3, now())
     ON CONFLICT (workspace_id) DO UPDATE SET logo = excluded.logo, updated_by = excluded.updated_by, updated_at = now()`,
    [workspaceId, logo, by]
  )

export const writeSeatLimit = (workspaceId: string, seatLimit: number | null, by: string) =>
  query(
    `INSERT INTO pm_workspace_settings (workspace_id, seat_limit, updated_by, updated_at) VALUES ($1, $2, $3, now())
     ON CONFLICT (workspace_id) DO UPDATE SET seat_limit = excluded.seat_limit, updated_by = excluded.updated_by, updated_at = now()`,
    [workspaceId, seatLimit, by]
  )

/** Resets every section (the logo and seat limit stay). */
export const resetSections = (workspaceId: string, by: string) =>
  query(
    `UPDATE pm_workspace_settings SET general = '{}'::jsonb, features = '{}'::jsonb, default_views = '{}'::jsonb, security = '{}'::jsonb,
            branding = '{}'::jsonb, updated_by = $2, updated_at = now() WHERE workspace_id = $1`,
    [workspaceId, by]
  )

export const domainOf = (email: string) => email.slice(email.lastIndexOf("@") + 1).toLowerCase()

// ---------------------------------------------------------------------------
// Commands of the workspace's PmOrganization actor

const sectionEvent: Record<Section, string> = {
  general: "workspace.settings_updated",
  features: "workspace.features_updated",
  defaultViews: "workspace.default_views_updated",
  security: "workspace.security_updated",
  branding: "workspace.branding_updated"
}

export const configCommands = {
  /** Merges `patch` into one section; returns the whole settings. */
  updateSection: command(Schema.Struct({ section: Section, patch: SettingsPatch }), Config, OrganizationRefused, (input, by, workspaceId) =>
    Effect.gen(function* () {
      const foreign = Object.keys(input.patch).filter((key) => !Object.hasOwn(sections[input.section].fields, key))
      if (foreign.length > 0) return yield* new NotASetting({ section: input.section, keys: foreign })
      const current = yield* configOf(workspaceId)
      const next = { ...current[input.section], ...input.patch }
      yield* writeSection(workspaceId, input.section, next, by)
      return {
        result: yield* configOf(workspaceId),
        changes: [change({ workspaceId }, sectionEvent[input.section], workspaceId, { ...input.patch }, by)]
      }
    })
  ),

  resetConfig: command(Schema.Struct({}), Config, OrganizationRefused, (_, by, workspaceId) =>
    Effect.gen(function* () {
      yield* resetSections(workspaceId, by)
      return { result: yield* configOf(workspaceId), changes: [change({ workspaceId }, "workspace.settings_reset", workspaceId, {}, by)] }
    })
  ),

  /** Sets (or clears) the logo; returns the previous one, whose bytes the caller deletes after the commit. */
  setLogo: command(
    Schema.Struct({ logo: Schema.NullOr(LogoInfo) }),
    Schema.Struct({ previous: Schema.NullOr(LogoInfo), logo: Schema.NullOr(LogoInfo) }),
    OrganizationRefused,
    (input, by, workspaceId) =>
      Effect.gen(function* () {
        const previous = (yield* configOf(workspaceId)).logo
        if (input.logo === null && previous === null) return yield* new NoWorkspaceLogo()
        yield* writeLogo(workspaceId, input.logo, by)
        return {
          result: { previous, logo: input.logo },
          changes: [
            change(
              { workspaceId },
              input.logo === null ? "workspace.logo_removed" : "workspace.logo_updated",
              workspaceId,
              input.logo === null ? {} : { contentType: input.logo.contentType, size: input.logo.size },
              by
            )
          ]
        }
      })
  ),

  setSeatLimit: command(
    Schema.Struct({ seatLimit: Schema.NullOr(Schema.Int) }),
    Schema.Void,
    OrganizationRefused,
    (input, by, workspaceId) =>
      Effect.gen(function* () {
        yield* writeSeatLimit(workspaceId, input.seatLimit, by)
        return {
          result: undefined,
          changes: [change({ workspaceId }, "workspace.seat_limit_updated", workspaceId, { seatLimit: input.seatLimit }, by)]
        }
      })
  )
}

const findJoinable = SqlSchema.findAll({
  Request: Schema.String,
  Result: Schema.Struct({ workspaceId: Schema.String }),
  execute: (domain) => [
    `SELECT workspace_id AS "workspaceId" FROM pm_workspace_settings WHERE (features->>'domainJoin')::boolean AND security->'autoJoinDomains' ? $1`,
    [domain]
  ]
})

/** Workspaces that let anyone of this e-mail domain join (the feature on and the domain listed). */
export const workspacesJoinableFrom = (domain: string) => Effect.map(findJoinable(domain), (rows) => rows.map((r) => r.workspaceId))
