/** pm tag "Tags" (4): the tags of a space, which its tasks pick from. Writes go through the space actor. */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { TagInput, TagPatch, tagsOfSpace } from "../../actors/pm/SpaceTags.ts"
import { send } from "../../actors/pm/WorkActor.ts"
import { PmSpace } from "../../actors/pm/WorkActors.ts"
import { Items, Tag } from "../../actors/pm/WorkRecords.ts"
import { tagGroup } from "../Operation.ts"
import { onSpace, orDieSql } from "./WorkAccess.ts"

import { tagsExamples } from "./Tags.examples.ts"
const SpaceParams = Schema.Struct({ spaceId: Id })
const TagParams = Schema.Struct({ spaceId: Id, tagId: Id })

const { operation } = tagGroup("pm", "Tags", tagsExamples)

export const tagsOperations = [
  operation({
    operationId: "listSpaceTags",
    method: "GET",
    path: "/v1/spaces/{spaceId}/tags",
    summary: "A space's tags, with how many tasks carry each",
    auth: "both",
    scopes: ["tasks:read"],
    params: SpaceParams,
    responses: { 200: { description: "Tags", schema: Items(Schema.Struct({ ...Tag.fields, taskCount: Schema.Number })) } },
    handler: ({ params }, context) =>
      Effect.andThen(
        onSpace(context, params.spaceId),
        Effect.map(orDieSql(tagsOfSpace(params.spaceId)), (items) => ({ items }))
      )
  }),
  operation({
    operationId: "createSpaceTag",
    method: "POST",
    path: "/v1/spaces/{spaceId}/tags",
    summary: "Create a tag in a space (names are unique per space, case-insensitive)",
    auth: "both",
    scopes: ["tasks:write"],
    params: SpaceParams,
    body: TagInput,
    responses: { 201: { description: "Created", schema: Tag }, 409: { description: "A tag of that name exists" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onSpace(context, params.spaceId, "member")
        return yield* send(PmSpace, params.spaceId, "createTag", caller.userId, body)
      })
  }),
  operation({
    operationId: "updateSpaceTag",
    method: "PATCH",
    path: "/v1/spaces/{spaceId}/tags/{tagId}",
    summary: "Rename or recolor a tag (every task carrying it shows the change)",
    auth: "both",
    scopes: ["tasks:write"],
    params: TagParams,
    body: TagPatch,
    responses: { 200: { description: "Updated", schema: Tag } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onSpace(context, params.spaceId, "member")
        return yield* send(PmSpace, params.spaceId, "updateTag", caller.userId, { tagId: params.tagId, ...body })
      })
  }),
  operation({
    operationId: "deleteSpaceTag",
    method: "DELETE",
    path: "/v1/spaces/{spaceId}/tags/{tagId}",
    summary: "Delete a tag and take it off every task",
    auth: "both",
    scopes: ["tasks:write"],
    params: TagParams,
    responses: { 204: { description: "Deleted" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* onSpace(context, params.spaceId, "member")
        yield* send(PmSpace, params.spaceId, "deleteTag", caller.userId, { tagId: params.tagId })
      })
  })
]
