/** Lens Task Resource (1): turn one of your Lens answers into a pm task (with its citations), created with your own permissions. */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { askThread } from "../../actors/lens/LensThread.ts"
import { threadOfAnswer } from "../../actors/lens/Threads.ts"
import { reject } from "../../runtime/Rejection.ts"
import { userOf } from "../Access.ts"
import { tagGroup } from "../Operation.ts"
import { orDieSql } from "../pm/WorkAccess.ts"

import { invokeAsCaller } from "./Proposals.ts"
import { lensTaskExamples } from "./LensTask.examples.ts"

const NameRef = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200))

const { operation } = tagGroup("hub", "Lens Task Resource", lensTaskExamples)

export const lensTaskOperations = [
  operation({
    operationId: "createTaskFromLensAnswer",
    // The task is created with the caller's own credentials (`invokeAsCaller`).
    headers: ["authorization", "x-api-key"],
    method: "POST",
    path: "/v1/lens/answers/{answerId}/task",
    summary: "Create a task from one of your Lens answers: its question as the name, the answer and its citations as the description",
    auth: "jwt",
    scopes: [],
    params: Schema.Struct({ answerId: Id }),
    body: Schema.Struct({ list: NameRef, space: Schema.optionalKey(NameRef), name: Schema.optionalKey(NameRef) }),
    responses: {
      201: { description: "The created task (Tasks Lite shape)", schema: Schema.Struct({ id: Schema.String, name: Schema.String }) },
      404: { description: "No such answer of yours, or no such list" }
    },
    handler: ({ params, body }, context) =>
      orDieSql(
        Effect.gen(function* () {
          const user = yield* userOf(context)
          const threadId = yield* threadOfAnswer(params.answerId)
          if (threadId === undefined) return yield* reject("not_found", "No such Lens answer")
          const { workspaceId, turn } = yield* askThread(threadId).turn({ by: user.userId, answerId: params.answerId })
          const sources = turn.citations.map((c) => `[${c.n}] ${c.sourceType} ${c.sourceId}: ${c.title}`).join("\n")
          const created = yield* invokeAsCaller(context, "createTaskLite", {
            workspaceId,
            list: body.list,
            ...(body.space ? { space: body.space } : {}),
            name: (body.name ?? turn.message).slice(0, 200),
            description: `${turn.answer}\n\nSources:\n${sources}`.slice(0, 20_000)
          })
          const task = created as { id: string; name: string }
          return { id: task.id, name: task.name }
        })
      )
  })
]
