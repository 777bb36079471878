/**
 * The task-side pm protocols (task, list, discussion, vote, template and
 * relationship commands) are declared with schemas: every command has a
 * checked payload and success, and both survive the JSON that NATS carries.
 */
import { Effect, Exit } from "effect"
import { describe, expect, it } from "vitest"
import { PmTaskVotes } from "../../../actors/pm/PlanningActors.ts"
import { relationshipCommands } from "../../../actors/pm/Relationships.ts"
import { listTaskCommands, taskCommands } from "../../../actors/pm/TaskCommands.ts"
import { discussionCommands } from "../../../actors/pm/TaskDiscussion.ts"
import { templateCommands } from "../../../actors/pm/TaskTemplates.ts"
import { voteCommands } from "../../../actors/pm/TaskVotes.ts"
import { PmList, PmTask, PmWorkspace } from "../../../actors/pm/WorkActors.ts"
import { exampleTask } from "../../../facade/pm/WorkExamples.ts"
import type { ActorKind } from "../../../runtime/Actor.ts"
import { codecFor } from "../../../runtime/MessageCodec.ts"

const tables: ReadonlyArray<readonly [ActorKind, Record<string, unknown>]> = [
  [PmList, listTaskCommands],
  [PmTask, taskCommands],
  [PmTask, discussionCommands],
  [PmWorkspace, templateCommands],
  [PmWorkspace, relationshipCommands],
  [PmTaskVotes, voteCommands]
]

const viaJson = (kind: ActorKind, tag: string, payload: unknown) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const codec = codecFor(kind, tag)!
      const encoded = yield* codec.encodePayload(payload)
      return yield* codec.decodePayload(JSON.parse(JSON.stringify(encoded)))
    })
  )

const by = "0b9e4c1a-6f0e-4d5f-9a77-3f7c2f1e8a10"
const other = "7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f"

describe("task protocols", () => {
  it("declare every command with a payload and a success schema", () => {
    for (const [kind, table] of tables) {
      for (const name of Object.keys(table)) {
        expect(typeof table[name], `${kind.kind}.${name}`).toBe("object")
        const message = (kind.messages as Record<string, { unchecked?: true }>)[name]
        expect(message, `${kind.kind}.${name}`).toBeDefined()
        expect(message!.unchecked, `${kind.kind}.${name}`).toBeUndefined()
      }
    }
  })

  it("carry inputs through JSON as they were sent", async () => {
    const create = {
      by,
      input: {
        name: "Ship",
        priority: null,
        dueDate: "2026-12-01T17:00:00.000Z",
        assigneeIds: [other],
        tagNames: ["frontend"],
        customFields: { [other]: { nested: [1, "two"] } },
        parentTaskId: null
      }
    }
    expect(await viaJson(PmList, "createTask", create)).toEqual(create)
    const template = {
      by,
      input: {
        name: "Copy",
        template: {
          name: "Release",
          priority: "high",
          customFields: {},
          checklists: [{ name: "Steps", items: [{ name: "Tag", resolved: true }] }],
          subtasks: [{ name: "Notes", subtasks: [{ name: "Draft", dueDate: null }] }]
        }
      }
    }
    expect(await viaJson(PmList, "instantiateTask", template)).toEqual(template)
    const recurrence = { by, input: { recurrence: { frequency: "weekly", interval: 2, until: null } } }
    expect(await viaJson(PmTask, "setRecurrence", recurrence)).toEqual(recurrence)
  })

  it("refuse inputs and replies that do not fit", async () => {
    await expect(viaJson(PmTask, "update", { by, input: { priority: "someday" } })).rejects.toThrow()
    await expect(
      viaJson(PmWorkspace, "createRelationship", { by, input: { taskId: by, type: "follows", otherTaskId: other } })
    ).rejects.toThrow()
    const update = codecFor(PmTask, "update")!
    expect(Exit.isSuccess(update.encodeSuccess(exampleTask))).toBe(true)
    const { version: _v, ...withoutVersion } = exampleTask
    expect(Exit.isFailure(update.encodeSuccess(withoutVersion))).toBe(true)
    expect(Exit.isSuccess(codecFor(PmTask, "delete")!.encodeSuccess(undefined))).toBe(true)
  })
})
