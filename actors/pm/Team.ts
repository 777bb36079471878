/**
 * Teams: named groups of workspace members, with a lead or two. The `PmTeam`
 * actor (one per team) is the single writer of its rows in `pm_teams` and
 * `pm_team_members`; every command commits with its change events through
 * the ChangeLog (`team.created`, `team.updated`, `team.members_changed`,
 * `team.deleted`, workspace scope). Reads query SQL directly.
 */
import { Effect, Schema } from "effect"
import { query } from "../../persistence/Sql.ts"
import * as SqlSchema from "../../persistence/SqlSchema.ts"
import { Id, Name, Timestamp } from "../Fields.ts"
import { change } from "./Changes.ts"
import { membersOf } from "./Members.ts"
import { AddedAndRemoved, TeamMemberOutsideWorkspace, TeamNotFound, TooManyTeamMembers, UserListedTwice } from "./PmErrors.ts"
import { TeamRole } from "./ReferenceData.ts"
import { command, workActor } from "./WorkActor.ts"
import { Color } from "./WorkRecords.ts"

export const MAX_TEAM_MEMBERS = 500

export const TeamMember = Schema.Struct({
  userId: Id,
  name: Schema.String,
  email: Schema.String,
  role: TeamRole,
  addedAt: Timestamp
}).annotate({ identifier: "TeamMember" })

export const Team = Schema.Struct({
  id: Id,
  workspaceId: Id,
  name: Schema.String,
  description: Schema.String,
  color: Schema.NullOr(Schema.String),
  members: Schema.Array(TeamMember),
  memberCount: Schema.Number,
  createdBy: Id,
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({ identifier: "Team", description: "A named group of workspace members, e.g. to assign or mention many at once." })
export type Team = typeof Team.Type

export interface TeamRow {
  readonly id: string
  readonly workspaceId: string
  readonly name: string
  readonly description: string
  readonly color: string | null
  readonly createdBy: string
  readonly createdAt: string
  readonly updatedAt: string
}

export interface TeamMemberRow {
  readonly teamId: string
  readonly userId: string
  readonly role: typeof TeamRole.Type
  readonly addedAt: string
}

const TEAM_COLUMNS = `id, workspace_id AS "workspaceId", name, description, color, created_by AS "createdBy", created_at AS "createdAt", updated_at AS "updatedAt"`

export const teamRows = (workspaceId: string, teamIds?: ReadonlyArray<string>) =>
  teamIds === undefined
    ? query<TeamRow>(`SELECT ${TEAM_COLUMNS} FROM pm_teams WHERE workspace_id = $1 ORDER BY lower(name), id`, [workspaceId])
    : query<TeamRow>(`SELECT ${TEAM_COLUMNS} FROM pm_teams WHERE workspace_id = $1 AND id = ANY($2::text[]) ORDER BY lower(name), id`, [
        workspaceId,
        teamIds
      ])

export const teamMemberRows = (teamIds: ReadonlyArray<string>) =>
  query<TeamMemberRow>(
    `SELECT team_id AS "teamId", user_id AS "userId", role, added_at AS "addedAt" FROM pm_team_members
      WHERE team_id = ANY($1::text[]) ORDER BY role = 'lead' DESC, added_at, user_id`,
    [teamIds]
  )

/** The workspace a team belongs to (undefined: no such team). */
export const teamWorkspace = (teamId: string) =>
  Effect.map(query<{ workspace_id: string }>("SELECT workspace_id FROM pm_teams WHERE id = $1", [teamId]), (rows) => rows[0]?.workspace_id)

const findMemberships = SqlSchema.findAll({
  Request: Schema.String,
  Result: Schema.Struct({
    teamId: Schema.String,
    name: Schema.String,
    workspaceId: Schema.String,
    role: Schema.String,
    addedAt: Schema.String
  }),
  execute: (userId) => [
    `SELECT m.team_id AS "teamId", t.name, t.workspace_id AS "workspaceId", m.role, m.added_at AS "addedAt"
       FROM pm_team_members m JOIN pm_teams t ON t.id = m.team_id
      WHERE m.user_id = $1 ORDER BY t.workspace_id, t.name`,
    [userId]
  ]
})

/** Every team the user is in, across workspaces, by workspace then team name. */
export const membershipsOf = (userId: string) => findMemberships(userId)

export const MemberInput = Schema.Struct({ userId: Id, role: TeamRole })
export type MemberInput = typeof MemberInput.Type
export const MembersInput = Schema.Array(MemberInput).check(Schema.isMaxLength(MAX_TEAM_MEMBERS))
const Description = Schema.String.check(Schema.isMaxLength(2000))

const checkMembers = (workspaceId: string, members: ReadonlyArray<MemberInput>, path: string) =>
  Effect.gen(function* () {
    const known = yield* membersOf(workspaceId)
    const index = members.findIndex((m) => !known.has(m.userId))
    if (index >= 0) return yield* new TeamMemberOutsideWorkspace({ field: `${path}.${index}.userId` })
    const seen = new Set<string>()
    for (const [i, member] of members.entries()) {
      if (seen.has(member.userId)) return yield* new UserListedTwice({ field: `${path}.${i}.userId` })
      seen.add(member.userId)
    }
  })

const loadTeam = (teamId: string) =>
  Effect.gen(function* () {
    const rows = yield* query<TeamRow>(`SELECT ${TEAM_COLUMNS} FROM pm_teams WHERE id = $1`, [teamId])
    if (rows[0] === undefined) return yield* new TeamNotFound()
    return rows[0]
  })

const insertMembers = (teamId: string, members: ReadonlyArray<MemberInput>) =>
  members.length === 0
    ? Effect.void
    : Effect.asVoid(
        query(
          `INSERT INTO pm_team_members (team_id, user_id, role)
       SELECT $1, m.user_id, m.role FROM unnest($2::text[], $3::text[]) AS m(user_id, role)
       ON CONFLICT (team_id, user_id) DO UPDATE SET role = excluded.role`,
          [teamId, members.map((m) => m.userId), members.map((m) => m.role)]
        )
      )

const memberCount = (teamId: string) =>
  Effect.map(query<{ n: number }>("SELECT count(*) AS n FROM pm_team_members WHERE team_id = $1", [teamId]), (rows) => Number(rows[0]!.n))

export const NewTeam = Schema.Struct({
  name: Name(100),
  description: Schema.optionalKey(Description),
  color: Schema.optionalKey(Schema.NullOr(Color)),
  members: Schema.optionalKey(MembersInput)
})

export const TeamPatch = Schema.Struct({
  name: Schema.optionalKey(Name(100)),
  description: Schema.optionalKey(Description),
  color: Schema.optionalKey(Schema.NullOr(Color))
})

/** `add` adds members or changes the role of existing ones; `remove` takes user ids. */
export const TeamMembersChange = Schema.Struct({
  add: Schema.optionalKey(MembersInput),
  remove: Schema.optionalKey(Schema.Array(Id).check(Schema.isMaxLength(MAX_TEAM_MEMBERS)))
})

const TeamRef = Schema.Struct({ id: Id })

const MembersRefused = Schema.Union([TeamMemberOutsideWorkspace, UserListedTwice])
const MembersChangeRefused = Schema.Union([TeamNotFound, TeamMemberOutsideWorkspace, UserListedTwice, AddedAndRemoved, TooManyTeamMembers])

export const PmTeam = workActor("pmTeam", {
  create: command(Schema.Struct({ workspaceId: Id, ...NewTeam.fields }), TeamRef, MembersRefused, (input, by, id) =>
    Effect.gen(function* () {
      const members = input.members ?? []
      yield* checkMembers(input.workspaceId, members, "body.members")
      yield* query("INSERT INTO pm_teams (id, workspace_id, name, description, color, created_by) VALUES ($1, $2, $3, $4, $5, $6)", [
        id,
        input.workspaceId,
        input.name.trim(),
        input.description ?? "",
        input.color ?? null,
        by
      ])
      yield* insertMembers(id, members)
      return {
        result: { id },
        changes: [
          change(
            { workspaceId: input.workspaceId },
            "team.created",
            id,
            { name: input.name.trim(), memberIds: members.map((m) => m.userId) },
            by
          )
        ]
      }
    })
  ),
  update: command(TeamPatch, TeamRef, TeamNotFound, (input, by, id) =>
    Effect.gen(function* () {
      const team = yield* loadTeam(id)
      yield* query("UPDATE pm_teams SET name = $2, description = $3, color = $4, updated_at = now() WHERE id = $1", [
        id,
        input.name?.trim() ?? team.name,
        input.description ?? team.description,
        input.color === undefined ? team.color : input.color
      ])
      const changed = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined))
      return { result: { id }, changes: [change({ workspaceId: team.workspaceId }, "team.updated", id, changed, by)] }
    })
  ),
  updateMembers: command(TeamMembersChange, TeamRef, MembersChangeRefused, (input, by, id) =>
    Effect.gen(function* () {
      const team = yield* loadTeam(id)
      const add = input.add ?? []
      const remove = input.remove ?? []
      yield* checkMembers(team.workspaceId, add, "body.add")
      const both = add.findIndex((m) => remove.includes(m.userId))
      if (both >= 0) return yield* new AddedAndRemoved({ field: `body.add.${both}.userId` })
      if (remove.length > 0) yield* query("DELETE FROM pm_team_members WHERE team_id = $1 AND user_id = ANY($2::text[])", [id, remove])
      yield* insertMembers(id, add)
      if ((yield* memberCount(id)) > MAX_TEAM_MEMBERS) return yield* new TooManyTeamMembers({ max: MAX_TEAM_MEMBERS })
      yield* query("UPDATE pm_teams SET updated_at = now() WHERE id = $1", [id])
      return {
        result: { id },
        changes: [change({ workspaceId: team.workspaceId }, "team.members_changed", id, { added: add, removed: remove }, by)]
      }
    })
  ),
  delete: command(Schema.Struct({}), TeamRef, TeamNotFound, (_input, by, id) =>
    Effect.gen(function* () {
      const team = yield* loadTeam(id)
      yield* query("DELETE FROM pm_team_members WHERE team_id = $1", [id])
      yield* query("DELETE FROM pm_teams WHERE id = $1", [id])
      return { result: { id }, changes: [change({ workspaceId: team.workspaceId }, "team.deleted", id, { name: team.name }, by)] }
    })
  )
})
