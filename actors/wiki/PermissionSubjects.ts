/**
 * Who a permission entry is for, as callers name it (a user id, an e-mail,
 * or a workspace role), and entries as operations answer them (with the
 * user's name and e-mail).
 */
import { Effect, Schema } from "effect"
import { Account } from "../identity/Account.ts"
import { usersByIds } from "../identity/IdentityQueries.ts"
import { Email, Id, Timestamp, normalizeEmail } from "../Fields.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { reject } from "../../runtime/Rejection.ts"
import type { Subject } from "./WikiRecords.ts"
import { WorkspaceRoleSubject } from "./WikiRoles.ts"
import { WikiSubjectNotMember } from "./WikiErrors.ts"

/** Body fields naming the subject: exactly one of them. */
export const subjectFields = {
  userId: Schema.optionalKey(Id),
  email: Schema.optionalKey(Email),
  workspaceRole: Schema.optionalKey(
    WorkspaceRoleSubject.annotate({ description: "Everyone holding this workspace role (owners count as admins)" })
  )
}

export const resolveSubject = (input: {
  readonly userId?: string
  readonly email?: string
  readonly workspaceRole?: typeof WorkspaceRoleSubject.Type
}) =>
  Effect.gen(function* () {
    const given = (["userId", "email", "workspaceRole"] as const).filter((field) => input[field] !== undefined)
    if (given.length !== 1) {
      return yield* reject("invalid", "Name exactly one of userId, email or workspaceRole", [
        {
          path: `body.${given[1] ?? "userId"}`,
          message: given.length === 0 ? "one of userId, email, workspaceRole is required" : `not together with ${given[0]}`
        }
      ])
    }
    if (input.userId !== undefined) return { userId: input.userId } satisfies Subject
    if (input.workspaceRole !== undefined) return { workspaceRole: input.workspaceRole } satisfies Subject
    const user = yield* Account.client(yield* ActorSystem)(normalizeEmail(input.email!))
      .profile({})
      .pipe(
        Effect.catchTag("UserNotFound", () =>
          Effect.fail(reject("invalid", "No user has that e-mail", [{ path: "body.email", message: "not registered" }]))
        )
      )
    return { userId: user.id } satisfies Subject
  })

/** A subject error from an actor names `body.userId`; when the caller gave an e-mail, point there instead. */
export const blameEmail =
  (input: { readonly email?: string }) =>
  <A, E, R>(effect: Effect.Effect<A, E | WikiSubjectNotMember, R>): Effect.Effect<A, E | WikiSubjectNotMember, R> =>
    input.email === undefined
      ? effect
      : Effect.catchIf(
          effect,
          (error): error is WikiSubjectNotMember => error instanceof WikiSubjectNotMember,
          () => Effect.fail(new WikiSubjectNotMember({ field: "body.email" }))
        )

export const SubjectView = {
  userId: Schema.NullOr(Id),
  name: Schema.NullOr(Schema.String),
  email: Schema.NullOr(Schema.String),
  workspaceRole: Schema.NullOr(WorkspaceRoleSubject),
  createdAt: Timestamp,
  updatedAt: Timestamp
}

/** Entries with their users' names and e-mails. */
export const withUsers = <E extends { readonly userId: string | null }>(entries: ReadonlyArray<E>) =>
  Effect.map(Effect.orDie(usersByIds(entries.flatMap((entry) => (entry.userId === null ? [] : [entry.userId])))), (users) =>
    entries.map((entry) => ({
      ...entry,
      name: entry.userId === null ? null : (users.get(entry.userId)?.name ?? null),
      email: entry.userId === null ? null : (users.get(entry.userId)?.email ?? null)
    }))
  )
