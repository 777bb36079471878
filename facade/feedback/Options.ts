/**
 * feedback tags "Category Resource" (4), "Product Area Resource" (4),
 * "Status Resource" (5), "Bug Status Level Resource" (4) and "Severity Level
 * Resource" (4): a board's configurable, ordered values. Anyone who sees the
 * board may list them; board admins create, change, reorder and delete them.
 * Deleting one moves the requests that used it to `replacementId` (statuses:
 * to the default status when none is given; a board keeps one status).
 */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { boardIdOfOption } from "../../actors/feedback/BoardRows.ts"
import { type OptionKind, StatusType } from "../../actors/feedback/FeedbackModel.ts"
import { reject } from "../../runtime/Rejection.ts"
import { refusalCode } from "../HttpError.ts"
import { type AnyOperation, tagGroup } from "../Operation.ts"
import { board, BoardParams } from "./BoardAsk.ts"
import { boardAccess } from "./FeedbackAccess.ts"
import { examples, optionDto, optionSchema, service } from "./FeedbackViews.ts"

interface Spec {
  readonly kind: OptionKind
  readonly tag: string
  /** Singular and plural, for ids and summaries: `Category` / `Categories`. */
  readonly one: string
  readonly many: string
  /** Path segment: `categories`. */
  readonly segment: string
  /** Path parameter: `categoryId`. */
  readonly param: string
  readonly exampleId: string
  readonly exampleName: string
}

const specs: ReadonlyArray<Spec> = [
  {
    kind: "category",
    tag: "Category Resource",
    one: "Category",
    many: "Categories",
    segment: "categories",
    param: "categoryId",
    exampleId: examples.categoryId,
    exampleName: "Integrations"
  },
  {
    kind: "product_area",
    tag: "Product Area Resource",
    one: "ProductArea",
    many: "ProductAreas",
    segment: "product-areas",
    param: "productAreaId",
    exampleId: examples.productAreaId,
    exampleName: "Mobile app"
  },
  {
    kind: "status",
    tag: "Status Resource",
    one: "Status",
    many: "Statuses",
    segment: "statuses",
    param: "statusId",
    exampleId: examples.statusId,
    exampleName: "Beta"
  },
  {
    kind: "bug_status",
    tag: "Bug Status Level Resource",
    one: "BugStatusLevel",
    many: "BugStatusLevels",
    segment: "bug-status-levels",
    param: "bugStatusLevelId",
    exampleId: examples.bugStatusLevelId,
    exampleName: "Needs info"
  },
  {
    kind: "severity",
    tag: "Severity Level Resource",
    one: "SeverityLevel",
    many: "SeverityLevels",
    segment: "severity-levels",
    param: "severityLevelId",
    exampleId: examples.severityLevelId,
    exampleName: "Blocker"
  }
]

const OptionName = Schema.String.check(Schema.isMaxLength(80), Schema.isPattern(/\S/, { expected: "a non-blank name" }))
const Color = Schema.String.check(Schema.isPattern(/^#[0-9a-fA-F]{6}$/, { expected: "a colour like #3b82f6" }))
const Position = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 1000 })).annotate({
  description: "0-based place among the others (clamped)"
})
const words = (spec: Spec) => spec.kind.replace("_", " ").replace("bug status", "bug status level").replace("severity", "severity level")

const operationsOf = (spec: Spec): Array<AnyOperation> => {
  const Dto = optionSchema(spec.kind, `Feedback${spec.one}`)
  const ListDto = Schema.Struct({ items: Schema.Array(Dto) }).annotate({ identifier: `Feedback${spec.one}List` })
  const isStatus = spec.kind === "status"
  const { operation } = tagGroup(service, spec.tag)
  const statusFields: Schema.Struct.Fields = isStatus
    ? {
        type: Schema.optionalKey(StatusType),
        isDefault: Schema.optionalKey(Schema.Boolean.annotate({ description: "New requests start here" }))
      }
    : {}
  const fields = {
    description: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(500))),
    color: Schema.optionalKey(Color),
    position: Schema.optionalKey(Position),
    ...statusFields
  }
  const Params = Schema.Struct({ [spec.param]: Id })
  const example = {
    id: spec.exampleId,
    boardId: examples.boardId,
    name: spec.exampleName,
    description: "",
    color: "#3b82f6",
    position: 0,
    createdAt: examples.at,
    updatedAt: examples.at,
    ...(isStatus ? { type: "in_progress", isDefault: false } : {})
  }
  const { id: _, boardId: __, createdAt: ___, updatedAt: ____, ...createBody } = example
  const optionParams = { [spec.param]: spec.exampleId }
  /** The option's board with the caller's standing (404 for an option of another kind or a board they cannot see). */
  const optionAccess = (context: Parameters<typeof boardAccess>[0], optionId: string) =>
    Effect.gen(function* () {
      const boardId = yield* Effect.orDie(boardIdOfOption(optionId, spec.kind))
      if (boardId === undefined) return yield* reject("not_found", `No such ${words(spec)}`)
      const caller = yield* boardAccess(context, boardId).pipe(
        Effect.catchIf(
          (e) => refusalCode(e) === "not_found",
          () => Effect.fail(reject("not_found", `No such ${words(spec)}`))
        )
      )
      if (!caller.admin) return yield* reject("forbidden", "Only admins of this board may do this")
      return caller
    })
  const ops: Array<AnyOperation> = [
    operation({
      operationId: `list${spec.many}`,
      method: "GET",
      path: `/v1/boards/{boardId}/${spec.segment}`,
      summary: `The board's ${words(spec)} values, in order`,
      auth: "both",
      scopes: ["feedback:read"],
      params: BoardParams,
      responses: { 200: { description: "In order", schema: ListDto } },
      examples: [
        { name: "list", request: { params: { boardId: examples.boardId } }, response: { status: 200, body: { items: [example] } } }
      ],
      handler: ({ params }, context) =>
        Effect.map(boardAccess(context, params.boardId), (caller) => ({
          items: caller.view.options.filter((o) => o.kind === spec.kind).map(optionDto)
        }))
    }),
    operation({
      operationId: `create${spec.one}`,
      method: "POST",
      path: `/v1/boards/{boardId}/${spec.segment}`,
      summary: `Add a ${words(spec)} to the board (board admins)`,
      auth: "both",
      scopes: ["feedback:write"],
      params: BoardParams,
      body: Schema.Struct({ name: OptionName, ...fields }),
      responses: { 201: { description: "Added", schema: Dto }, 409: { description: "The name is taken on this board" } },
      examples: [
        { name: "add", request: { params: { boardId: examples.boardId }, body: createBody }, response: { status: 201, body: example } }
      ],
      handler: ({ params, body }, context) =>
        Effect.flatMap(boardAccess(context, params.boardId, "admin"), (caller) =>
          Effect.map(board(params.boardId).createOption({ by: caller.userId, kind: spec.kind, ...(body as { name: string }) }), optionDto)
        )
    }),
    operation({
      operationId: `update${spec.one}`,
      method: "PATCH",
      path: `/v1/${spec.segment}/{${spec.param}}`,
      summary: `Rename, recolour or move a ${words(spec)} (board admins)`,
      auth: "both",
      scopes: ["feedback:write"],
      params: Params,
      body: Schema.Struct({ name: Schema.optionalKey(OptionName), ...fields }),
      responses: { 200: { description: "Changed", schema: Dto } },
      examples: [
        {
          name: "rename",
          request: { params: optionParams, body: { name: `${spec.exampleName} (new)` } },
          response: { status: 200, body: { ...example, name: `${spec.exampleName} (new)` } }
        }
      ],
      handler: ({ params, body }, context) =>
        Effect.gen(function* () {
          const optionId = (params as Record<string, string>)[spec.param]!
          const caller = yield* optionAccess(context, optionId)
          return optionDto(yield* board(caller.view.board.id).updateOption({ by: caller.userId, kind: spec.kind, optionId, ...body }))
        })
    }),
    operation({
      operationId: `delete${spec.one}`,
      method: "DELETE",
      path: `/v1/${spec.segment}/{${spec.param}}`,
      summary: `Delete a ${words(spec)} (board admins); requests using it move to the replacement`,
      auth: "both",
      scopes: ["feedback:write"],
      params: Params,
      query: Schema.Struct({ replacementId: Schema.optionalKey(Id) }),
      responses: { 204: { description: "Deleted" }, 409: { description: "The board's last status" } },
      examples: [{ name: "delete", request: { params: optionParams }, response: { status: 204 } }],
      handler: ({ params, query }, context) =>
        Effect.gen(function* () {
          const optionId = (params as Record<string, string>)[spec.param]!
          const caller = yield* optionAccess(context, optionId)
          yield* board(caller.view.board.id).deleteOption({ by: caller.userId, kind: spec.kind, optionId, ...query })
        })
    })
  ]
  if (isStatus) {
    ops.push(
      operation({
        operationId: "reorderStatuses",
        method: "PUT",
        path: "/v1/boards/{boardId}/statuses/order",
        summary: "Put the board's statuses in a new order (board admins; every status once)",
        auth: "both",
        scopes: ["feedback:write"],
        params: BoardParams,
        body: Schema.Struct({ ids: Schema.Array(Id).check(Schema.isMaxLength(100)) }),
        responses: { 200: { description: "In the new order", schema: ListDto } },
        examples: [
          {
            name: "reorder",
            request: { params: { boardId: examples.boardId }, body: { ids: [examples.statusId] } },
            response: { status: 200, body: { items: [example] } }
          }
        ],
        handler: ({ params, body }, context) =>
          Effect.flatMap(boardAccess(context, params.boardId, "admin"), (caller) =>
            Effect.map(board(params.boardId).reorderOptions({ by: caller.userId, kind: "status", ids: body.ids }), (items) => ({
              items: items.map(optionDto)
            }))
          )
      })
    )
  }
  return ops
}

export const optionOperations: ReadonlyArray<AnyOperation> = specs.flatMap(operationsOf)
