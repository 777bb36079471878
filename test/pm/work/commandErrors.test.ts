/**
 * pm commands declare their errors: a work actor's message carries the
 * command's tagged errors and the SQL conflicts every command may meet; they
 * cross the NATS codec as their classes and are answered with the wording
 * the API always had.
 */
import { Effect, Exit } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { InvitationOutcome } from "../../../actors/pm/Invitations.ts"
import { InviteeAlreadyMember, NoFreeSeat } from "../../../actors/pm/OrganizationErrors.ts"
import { PmOrganization, PmPersonal } from "../../../actors/pm/OrganizationActors.ts"
import { PmDashboards, PmSprints, PmTaskVotes, PmViews } from "../../../actors/pm/PlanningActors.ts"
import { NameTaken, SprintNotPlanned, TooManyWidgets } from "../../../actors/pm/PlanningErrors.ts"
import {
  AlreadyFavorite,
  ItemExists,
  ListNotFound,
  NotWorkspaceMembers,
  ReplyToReply,
  SpaceNotFound,
  TaskNotFound,
  TeamNotFound,
  TooManyTeamMembers
} from "../../../actors/pm/PmErrors.ts"
import { PmWhiteboard } from "../../../actors/pmops/Whiteboards.ts"
import { PmTeam } from "../../../actors/pm/Team.ts"
import { read, send } from "../../../actors/pm/WorkActor.ts"
import { PmList, PmSpace, PmTask } from "../../../actors/pm/WorkActors.ts"
import { envelope, fromFailure } from "../../../facade/HttpError.ts"
import type { ActorKind } from "../../../runtime/Actor.ts"
import * as MessageCodec from "../../../runtime/MessageCodec.ts"
import { Rejection, reject } from "../../../runtime/Rejection.ts"
import { type Planning, startPlanning } from "../planning/planningSupport.ts"

const roundTrip = (kind: ActorKind, tag: string, error: unknown) => {
  const address = { kind: kind.kind, id: "a-1" }
  const codec = MessageCodec.codecFor(kind, tag)!
  // encodeOutcome takes any failure a handler produced; the codec decides whether it is declared.
  return Effect.runPromise(
    Effect.flip(MessageCodec.decodeReply(address, codec, 0, MessageCodec.encodeOutcome(address, codec, Exit.fail(error as Rejection))))
  )
}

describe("pm command errors", () => {
  it("a command's declared errors cross the codec as their classes, with the replies' wording", async () => {
    const tooMany = await roundTrip(PmTeam, "updateMembers", new TooManyTeamMembers({ max: 500 }))
    expect(tooMany).toBeInstanceOf(TooManyTeamMembers)
    expect(fromFailure(tooMany)).toMatchObject({
      status: 400,
      code: "invalid",
      message: "A team has at most 500 members",
      details: [{ path: "body.add", message: "too many members" }]
    })
    const missing = await roundTrip(PmTaskVotes, "setVote", new TaskNotFound())
    expect(missing).toBeInstanceOf(TaskNotFound)
    expect(fromFailure(missing)).toMatchObject({ status: 404, code: "not_found", message: "No such task" })
    const twice = await roundTrip(PmPersonal, "addFavorite", new AlreadyFavorite({ what: "list" }))
    expect(fromFailure(twice)).toMatchObject({
      status: 409,
      message: "This list is already a favorite",
      details: [{ path: "body.id", message: "already a favorite" }]
    })
  })

  it("every command may answer a SQL conflict; a command not yet ported still answers its Rejection", async () => {
    const taken = await roundTrip(PmTeam, "update", new ItemExists())
    expect(taken).toBeInstanceOf(ItemExists)
    expect(fromFailure(taken)).toMatchObject({ status: 409, code: "conflict", message: "That name or item already exists here" })
    expect(await roundTrip(PmTask, "update", reject("invalid", "bad"))).toBeInstanceOf(Rejection)
    // Another command's error is no declared error of this one: a defect, not a value.
    expect(await roundTrip(PmTeam, "delete", new AlreadyFavorite({ what: "list" }))).toMatchObject({ _tag: "ActorDefect" })
    expect(await roundTrip(PmTask, "get", new TeamNotFound())).toMatchObject({ _tag: "ActorDefect" })
  })
})

describe("pm planning, organization and whiteboard errors", () => {
  it("cross the codec as their classes and answer with the envelope the API always gave", async () => {
    const notPlanned = await roundTrip(PmSprints, "startSprint", new SprintNotPlanned({ status: "active" }))
    expect(notPlanned).toBeInstanceOf(SprintNotPlanned)
    expect(envelope(fromFailure(notPlanned), "r-1")).toBe(
      '{"error":{"code":"conflict","message":"The sprint is active; only a planned sprint starts"},"requestId":"r-1"}'
    )
    const taken = await roundTrip(PmViews, "createView", new NameTaken({ what: "view", name: "Board", where: "here" }))
    expect(fromFailure(taken)).toMatchObject({
      status: 409,
      code: "conflict",
      message: 'A view named "Board" exists here',
      details: [{ path: "body.name", message: "already exists" }]
    })
    expect(fromFailure(await roundTrip(PmDashboards, "addWidget", new TooManyWidgets({ max: 50 })))).toMatchObject({
      status: 409,
      message: "A dashboard holds at most 50 widgets"
    })
    const member = await roundTrip(PmOrganization, "createInvitation", new InviteeAlreadyMember({ email: "a@x.io", field: "body.email" }))
    expect(fromFailure(member)).toMatchObject({
      status: 409,
      message: "a@x.io is already a member",
      details: [{ path: "body.email", message: "already a member" }]
    })
    const reply = await roundTrip(PmWhiteboard, "createComment", new ReplyToReply({ field: "body.parentCommentId" }))
    expect(fromFailure(reply)).toMatchObject({
      status: 400,
      code: "invalid",
      message: "Replies go to top-level comments",
      details: [{ path: "body.parentCommentId", message: "is a reply" }]
    })
    // A command not yet declaring its errors still takes the shared helpers' tagged errors beside Rejection.
    const outsiders = await roundTrip(PmList, "createTask", new NotWorkspaceMembers({ userIds: ["u-9"], fields: ["body.assigneeIds.0"] }))
    expect(fromFailure(outsiders)).toMatchObject({
      status: 400,
      message: "Not a member of this workspace: u-9",
      details: [{ path: "body.assigneeIds.0", message: "not a member of this workspace" }]
    })
    // The hierarchy actors' reads answer their own not-found while there is nothing to read.
    const noList = await roundTrip(PmList, "locate", new ListNotFound())
    expect(noList).toBeInstanceOf(ListNotFound)
    expect(fromFailure(noList)).toMatchObject({ status: 404, code: "not_found", message: "No such list" })
    expect(fromFailure(await roundTrip(PmSpace, "access", new SpaceNotFound()))).toMatchObject({ status: 404, message: "No such space" })
    // A dashboard's error is no sprint command's: a defect, not a value.
    expect(await roundTrip(PmSprints, "startSprint", new TooManyWidgets({ max: 50 }))).toMatchObject({ _tag: "ActorDefect" })
  })

  it("the hierarchy actors' reads are declared read-only, grouped or not (answered from memory, never queued)", () => {
    const readOnlyOf = (kind: ActorKind) => kind.readOnly
    for (const kind of [PmSpace, PmList, PmTask]) expect(readOnlyOf(kind)).toEqual(Object.keys(kind.reads))
    expect(readOnlyOf(PmSpace)).toEqual(["access"])
  })

  it("a bulk invitation's refused address keeps its tagged error across the codec", () => {
    const refused = new NoFreeSeat({ limit: 3, members: 3, pendingInvitations: 0 })
    const codec = MessageCodec.codecFor(PmOrganization, "createInvitations")!
    const encoded = codec.encodeSuccess([{ email: "a@x.io", refused }])
    if (!Exit.isSuccess(encoded)) throw new Error("the outcome did not encode")
    const [decoded] = Effect.runSync(codec.decodeSuccess(encoded.value)) as ReadonlyArray<typeof InvitationOutcome.Type>
    expect(decoded?.refused).toBeInstanceOf(NoFreeSeat)
    expect(decoded?.refused?.message).toBe("The workspace has no free seat (limit 3, 3 members, 0 pending invitations)")
  })

  describe("over HTTP", () => {
    let p: Planning
    beforeAll(async () => {
      p = await startPlanning()
    }, 300_000)
    afterAll(async () => {
      await p?.atrium.close()
    })

    it("answers sprint, view and invitation refusals with the same status, code, message and details", async () => {
      const { call, fail, w, space, list } = p
      const sprint = await call("POST", `/spaces/${space.id}/sprints`, {}, w.member.token, 201)
      await call("POST", `/sprints/${sprint.id}/start`)
      expect(await fail("POST", `/sprints/${sprint.id}/start`, undefined, 409)).toMatchObject({
        error: { code: "conflict", message: "The sprint is active; only a planned sprint starts" }
      })
      const view = { scopeType: "list", scopeId: list.id, name: "Board", type: "board" }
      await call("POST", `/workspaces/${w.workspaceId}/views`, view, w.member.token, 201)
      expect(await fail("POST", `/workspaces/${w.workspaceId}/views`, view, 409)).toEqual({
        error: {
          code: "conflict",
          message: 'A view named "Board" exists here',
          details: [{ path: "body.name", message: "already exists" }]
        },
        requestId: expect.any(String)
      })
      const invited = await fail(
        "POST",
        `/workspaces/${w.workspaceId}/invitations`,
        { email: w.member.email, role: "viewer" },
        409,
        w.owner.token
      )
      expect(invited.error).toEqual({
        code: "conflict",
        message: `${w.member.email} is already a member`,
        details: [{ path: "body.email", message: "already a member" }]
      })
    })
  })
})

// Compile-time checks (tsc runs over test/): `send` and `read` are typed from the kind.
export const typed = {
  teamUpdate: send(PmTeam, "t-1", "update", "u-1", { name: "Core" }).pipe(
    Effect.catchTag("TeamNotFound", () => Effect.succeed({ id: "none" })),
    Effect.map((team) => team.id)
  ),
  // @ts-expect-error PmTeam has no command "rename"
  unknownCommand: send(PmTeam, "t-1", "rename", "u-1", {}),
  // @ts-expect-error update's input has no field "title"
  wrongInput: send(PmTeam, "t-1", "update", "u-1", { title: "Core" }),
  taskRead: read(PmTask, "t-1", "get", {}).pipe(Effect.map((task) => task.status))
}
