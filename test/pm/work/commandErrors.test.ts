/**
 * pm commands declare their errors: a work actor's message carries the
 * command's tagged errors and the SQL conflicts every command may meet; they
 * cross the NATS codec as their classes and are answered with the wording
 * the API always had.
 */
import { Effect, Exit } from "effect"
import { describe, expect, it } from "vitest"
import { PmPersonal } from "../../../actors/pm/OrganizationActors.ts"
import { PmTaskVotes } from "../../../actors/pm/PlanningActors.ts"
import { AlreadyFavorite, ItemExists, TaskNotFound, TeamNotFound, TooManyTeamMembers } from "../../../actors/pm/PmErrors.ts"
import { PmTeam } from "../../../actors/pm/Team.ts"
import { read, send } from "../../../actors/pm/WorkActor.ts"
import { PmTask } from "../../../actors/pm/WorkActors.ts"
import { fromFailure } from "../../../facade/HttpError.ts"
import type { ActorKind } from "../../../runtime/Actor.ts"
import * as MessageCodec from "../../../runtime/MessageCodec.ts"
import { Rejection, reject } from "../../../runtime/Rejection.ts"

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
