/**
 * The lists a task appears in: its home list and the lists it was added to.
 */
import { Effect, Schema } from "effect"
import { getList } from "../../../actors/pm/StructureReads.ts"
import { linkedListIds } from "../../../actors/pm/TaskReads.ts"
import { Items, List } from "../../../actors/pm/WorkRecords.ts"
import { tagGroup } from "../../Operation.ts"
import { onTask, orDieSql } from "../WorkAccess.ts"

import { tag, service, read, TaskParams } from "./shared.ts"
import { listLinksExamples } from "./ListLinks.examples.ts"

const { operation } = tagGroup(service, tag, listLinksExamples)

export const taskListLinksOperations = [
  operation({
    operationId: "listTaskLists",
    method: "GET",
    path: "/v1/tasks/{taskId}/lists",
    summary: "The lists a task appears in: its home list first, then the lists it was added to",
    auth: "both",
    scopes: read,
    params: TaskParams,
    responses: { 200: { description: "Lists", schema: Items(Schema.Struct({ ...List.fields, home: Schema.Boolean })) } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId)
        const home = yield* orDieSql(getList(caller.at.listId!))
        const links = yield* orDieSql(linkedListIds(params.taskId))
        const others = yield* orDieSql(Effect.forEach(links, (listId) => getList(listId)))
        return { items: [{ ...home, home: true }, ...others.map((l) => ({ ...l, home: false }))] }
      })
  })
]
