/**
 * A workspace's wiki settings: what the wiki allows (public wikis, exports,
 * imports, page-view tracking), the default home space, and the branding
 * public wikis fall back to. One actor per workspace id serializes changes
 * and records each one (who, when, from → to) in `wiki_settings_changes`;
 * its state is its row in `wiki_settings` (absent: all defaults), which the
 * rest of the wiki reads directly. Who may change them (workspace admins) is
 * checked by the caller.
 */
import { Effect, Schema } from "effect"
import { orDieSql, Sql, query } from "../../persistence/Sql.ts"
import { WikiHomeSpaceNotFound } from "./WikiErrors.ts"
import * as SqlSchema from "../../persistence/SqlSchema.ts"
import { Actor } from "../../runtime/Actor.ts"

const NullableString = Schema.NullOr(Schema.String)

export const HexColor = Schema.String.check(Schema.isPattern(/^#[0-9a-fA-F]{6}$/, { expected: "a color like #1a2b3c" }))
export const HttpsUrl = Schema.String.check(
  Schema.isMaxLength(2000),
  Schema.isPattern(/^https?:\/\/[^\s]+$/, { expected: "an http(s) URL" })
)

export const WikiSettingsView = Schema.Struct({
  workspaceId: Schema.String,
  allowPublicWikis: Schema.Boolean.annotate({
    description: "Space admins may publish public wikis and share pages publicly; off hides every public wiki of the workspace"
  }),
  allowExports: Schema.Boolean.annotate({ description: "Members may export pages and spaces" }),
  allowImports: Schema.Boolean.annotate({ description: "Editors may import Markdown, HTML and zip files" }),
  trackPageViews: Schema.Boolean.annotate({ description: "Record page views for dashboards, the home screen and public-wiki analytics" }),
  defaultHomeSpaceId: NullableString.annotate({ description: "The space the home screen leads with" }),
  updatedBy: NullableString,
  updatedAt: NullableString
}).annotate({ identifier: "WikiSettings" })
export type WikiSettingsView = typeof WikiSettingsView.Type

export const WikiBranding = Schema.Struct({
  siteName: NullableString,
  logoUrl: NullableString,
  accentColor: NullableString
}).annotate({ identifier: "WikiBranding", description: "What public wikis of the workspace show unless their own settings say otherwise" })
export type WikiBranding = typeof WikiBranding.Type

export const SettingsPatch = Schema.Struct({
  allowPublicWikis: Schema.optionalKey(Schema.Boolean),
  allowExports: Schema.optionalKey(Schema.Boolean),
  allowImports: Schema.optionalKey(Schema.Boolean),
  trackPageViews: Schema.optionalKey(Schema.Boolean),
  defaultHomeSpaceId: Schema.optionalKey(NullableString)
})

export const BrandingPatch = Schema.Struct({
  siteName: Schema.optionalKey(
    Schema.NullOr(Schema.String.check(Schema.isMaxLength(100), Schema.isPattern(/\S/, { expected: "a non-blank string" })))
  ),
  logoUrl: Schema.optionalKey(Schema.NullOr(HttpsUrl)),
  accentColor: Schema.optionalKey(Schema.NullOr(HexColor))
})

const COLUMNS: Record<string, string> = {
  allowPublicWikis: "allow_public_wikis",
  allowExports: "allow_exports",
  allowImports: "allow_imports",
  trackPageViews: "track_page_views",
  defaultHomeSpaceId: "default_home_space_id",
  siteName: "site_name",
  logoUrl: "logo_url",
  accentColor: "accent_color"
}

const defaults = {
  allowPublicWikis: true,
  allowExports: true,
  allowImports: true,
  trackPageViews: true,
  defaultHomeSpaceId: null,
  siteName: null,
  logoUrl: null,
  accentColor: null
} as const

type Row = Record<string, any>
type Flat = { -readonly [K in keyof typeof defaults]: (typeof defaults)[K] extends boolean ? boolean : string | null }

const flatOf = (row: Row | undefined): Flat => {
  const flat = { ...defaults } as Flat
  if (row !== undefined) for (const [field, column] of Object.entries(COLUMNS)) (flat as Row)[field] = row[column]
  return flat
}

export const settingsViewOf = (workspaceId: string, row: Row | undefined): WikiSettingsView => {
  const flat = flatOf(row)
  return {
    workspaceId,
    allowPublicWikis: flat.allowPublicWikis,
    allowExports: flat.allowExports,
    allowImports: flat.allowImports,
    trackPageViews: flat.trackPageViews,
    defaultHomeSpaceId: flat.defaultHomeSpaceId,
    updatedBy: row?.updated_by ?? null,
    updatedAt: row?.updated_at ?? null
  }
}

export const brandingOf = (row: Row | undefined): WikiBranding => {
  const flat = flatOf(row)
  return { siteName: flat.siteName, logoUrl: flat.logoUrl, accentColor: flat.accentColor }
}

const rowOf = (workspaceId: string) =>
  Effect.map(query("SELECT * FROM wiki_settings WHERE workspace_id = $1", [workspaceId]), (rows) => rows[0])

/** The workspace's wiki settings (defaults when never changed). */
export const wikiSettingsOf = (workspaceId: string) => Effect.map(rowOf(workspaceId), (row) => settingsViewOf(workspaceId, row))
export const wikiBrandingOf = (workspaceId: string) => Effect.map(rowOf(workspaceId), brandingOf)

const transaction = <A, E, R>(body: Effect.Effect<A, E, R>) => Sql.use((sql) => sql.transaction(body))

/** Writes `next` as the whole row and records what changed. Returns the new row. */
const save = (workspaceId: string, by: string, next: Flat) =>
  Effect.gen(function* () {
    const before = flatOf(yield* rowOf(workspaceId))
    const changes: Record<string, { from: unknown; to: unknown }> = {}
    for (const field of Object.keys(COLUMNS) as Array<keyof Flat>) {
      if (before[field] !== next[field]) changes[field] = { from: before[field], to: next[field] }
    }
    const columns = Object.values(COLUMNS)
    const values = Object.keys(COLUMNS).map((field) => (next as Row)[field])
    const rows = yield* query(
      `INSERT INTO wiki_settings (workspace_id, ${columns.join(", ")}, updated_by, updated_at)
       VALUES ($1, ${columns.map((_, i) => `$${i + 2}`).join(", ")}, $${columns.length + 2}, now())
       ON CONFLICT (workspace_id) DO UPDATE SET ${columns.map((c) => `${c} = excluded.${c}`).join(", ")},
         updated_by = excluded.updated_by, updated_at = now()
       RETURNING *`,
      [workspaceId, ...values, by]
    )
    if (Object.keys(changes).length > 0) {
      yield* query("INSERT INTO wiki_settings_changes (id, workspace_id, changed_by, changes) VALUES ($1, $2, $3, $4)", [
        crypto.randomUUID(),
        workspaceId,
        by,
        changes
      ])
    }
    return rows[0]!
  })

const checkHomeSpace = (workspaceId: string, spaceId: string | null | undefined) =>
  spaceId === null || spaceId === undefined
    ? Effect.void
    : Effect.flatMap(
        query("SELECT 1 FROM wiki_spaces WHERE id = $1 AND workspace_id = $2 AND archived_at IS NULL", [spaceId, workspaceId]),
        (rows) => (rows.length > 0 ? Effect.void : Effect.fail(new WikiHomeSpaceNotFound()))
      )

const By = { by: Schema.String }

export const WikiWorkspaceSettings = Actor<{}>()({
  kind: "wikiWorkspaceSettings",
  state: Schema.Struct({}),
  initial: () => ({}),
  messages: {
    update: { payload: Schema.Struct({ ...By, patch: SettingsPatch }), success: WikiSettingsView, error: WikiHomeSpaceNotFound },
    reset: { payload: Schema.Struct(By), success: WikiSettingsView, error: Schema.Never },
    setBranding: { payload: Schema.Struct({ ...By, patch: BrandingPatch }), success: WikiBranding, error: Schema.Never }
  },
  handlers: {
    update: ({ by, patch }, ctx) =>
      orDieSql(
        transaction(
          Effect.gen(function* () {
            const workspaceId = ctx.address.id
            yield* checkHomeSpace(workspaceId, patch.defaultHomeSpaceId)
            const next = { ...flatOf(yield* rowOf(workspaceId)), ...patch }
            return settingsViewOf(workspaceId, yield* save(workspaceId, by, next))
          })
        )
      ),
    reset: ({ by }, ctx) =>
      orDieSql(
        transaction(
          Effect.gen(function* () {
            const workspaceId = ctx.address.id
            // Branding is kept: resetting the switches should not wipe the public look.
            const current = flatOf(yield* rowOf(workspaceId))
            const next: Flat = { ...defaults, siteName: current.siteName, logoUrl: current.logoUrl, accentColor: current.accentColor }
            return settingsViewOf(workspaceId, yield* save(workspaceId, by, next))
          })
        )
      ),
    setBranding: ({ by, patch }, ctx) =>
      orDieSql(
        transaction(
          Effect.gen(function* () {
            const workspaceId = ctx.address.id
            const next = { ...flatOf(yield* rowOf(workspaceId)), ...patch }
            return brandingOf(yield* save(workspaceId, by, next))
          })
        )
      )
  }
})

const findChanges = SqlSchema.findAll({
  Request: Schema.Struct({ workspaceId: Schema.String, limit: Schema.Number }),
  Result: Schema.Struct({
    id: Schema.String,
    changedBy: Schema.String,
    changedAt: Schema.String,
    changes: Schema.Record(Schema.String, Schema.Struct({ from: Schema.Unknown, to: Schema.Unknown }))
  }),
  execute: (r) => [
    `SELECT id, changed_by AS "changedBy", changed_at AS "changedAt", changes FROM wiki_settings_changes
      WHERE workspace_id = $1 ORDER BY changed_at DESC, id LIMIT $2`,
    [r.workspaceId, r.limit]
  ]
})

/** The latest changes of the workspace's wiki settings, newest first: who, when, and each field's before and after. */
export const settingsChanges = (workspaceId: string, limit: number) => findChanges({ workspaceId, limit })
