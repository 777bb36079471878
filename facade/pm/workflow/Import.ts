/**
 * pm tag "Import" (6): tasks into a list from a CSV (with a column-mapping
 * preview), a ClickUp or Asana CSV export, or a Trello board export — as
 * background bulk jobs with progress and a result per row; re-running a job
 * (or posting the same idempotency key) never imports a row twice.
 */
import { Effect, Exit, Schema, SchemaIssue } from "effect"
import { Id, Name } from "../../../actors/Fields.ts"
import { read, send } from "../../../actors/pm/WorkActor.ts"
import { PmList } from "../../../actors/pm/WorkActors.ts"
import { BulkJob, JobRow, jobRows, newJobId, PmBulkJob, type PlannedRow } from "../../../actors/pmops/BulkJobs.ts"
import {
  type CsvTable,
  csvRows,
  csvTable,
  guessTarget,
  ImportTarget,
  type ParsedRow,
  TrelloBoard,
  type TrelloBoard as TrelloBoardType,
  toolCsvRows,
  trelloRows
} from "../../../actors/pmops/ImportSources.ts"
import { refusalOf } from "../../HttpError.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { type RequestContext, tagGroup } from "../../Operation.ts"
import { inWorkspace, Limit, Offset, onList, orDieSql, pageOf } from "../WorkAccess.ts"
import { invalid, taskInputOf } from "./TaskBodies.ts"
import { importExamples } from "./Import.examples.ts"
const ListParams = Schema.Struct({ listId: Id })
const ImportParams = Schema.Struct({ importId: Id })
const MAX_ROWS = 5000

const Csv = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(900_000)).annotate({
  description: "The CSV text, header row first"
})
const Mapping = Schema.Record(Schema.String.check(Schema.isMaxLength(200)), ImportTarget).annotate({
  description: "Column header → task field; columns left out are guessed from their header"
})
const IdempotencyKey = Name(200).annotate({ description: "The same key again answers the job it started instead of importing twice" })

const ImportDetail = Schema.Struct({ ...BulkJob.fields, rows: Schema.Array(JobRow) }).annotate({ identifier: "ImportJob" })

const formatIssues = SchemaIssue.makeFormatterStandardSchemaV1()
const decodeTrello = Schema.decodeUnknownExit(TrelloBoard as Schema.Codec<TrelloBoardType, unknown>, {
  onExcessProperty: "ignore",
  errors: "all"
})

/** The parts of a Trello export an import reads (the rest of the export is ignored), or 400 at `body.board…`. */
const decodeBoard = (board: unknown) => {
  const decoded = decodeTrello(board)
  if (Exit.isSuccess(decoded)) return Effect.succeed(decoded.value)
  const error = Exit.findErrorOption(decoded)
  const issues = error._tag === "Some" ? formatIssues(error.value.issue).issues : []
  return invalid(
    issues.map((issue) => ({
      path: ["body.board", ...(issue.path ?? []).map((k) => String(typeof k === "object" ? k.key : k))].join("."),
      message: issue.message
    }))
  )
}

/** Parses a CSV or answers 400 at `body.csv`. */
const tableOf = (text: string) =>
  Effect.try({
    try: () => csvTable(text),
    catch: (e) => reject("invalid", `Invalid body.csv: ${(e as Error).message}`, [{ path: "body.csv", message: (e as Error).message }])
  }).pipe(
    Effect.filterOrFail(
      (table) => table.headers.length > 0 && table.rows.length <= MAX_ROWS,
      (table) =>
        reject("invalid", "Invalid body.csv", [
          { path: "body.csv", message: table.headers.length === 0 ? "no header row" : `more than ${MAX_ROWS} rows` }
        ])
    )
  )

/** Each parsed row checked as a create-task body: the task to create, or the row's error. */
const plan = (workspaceId: string, parsed: ReadonlyArray<ParsedRow>) =>
  Effect.forEach(parsed, (row): Effect.Effect<PlannedRow, never, any> => {
    if (row.body === undefined) return Effect.succeed({ row: row.row, error: row.error ?? "invalid row" })
    return taskInputOf(workspaceId, row.body, `row ${row.row}`).pipe(
      Effect.map((task) => ({ row: row.row, task })),
      Effect.catch((e) => {
        const refusal = refusalOf(e)
        return Effect.succeed({
          row: row.row,
          error: refusal ? (refusal.details?.map((d) => `${d.path}: ${d.message}`).join("; ") ?? refusal.message) : "invalid row"
        })
      })
    )
  })

const start = (
  context: RequestContext,
  listId: string,
  source: typeof BulkJob.fields.source.Type,
  parsed: ReadonlyArray<ParsedRow>,
  idempotencyKey?: string
) =>
  Effect.gen(function* () {
    const caller = yield* onList(context, listId, "member")
    const rows = yield* plan(caller.at.workspaceId, parsed)
    const key = idempotencyKey ?? null
    const { job } = yield* send(PmBulkJob, newJobId(caller.at.workspaceId, key), "createImport", caller.userId, {
      workspaceId: caller.at.workspaceId,
      source,
      listId,
      spaceId: caller.at.spaceId,
      rows,
      idempotencyKey: key
    })
    return job
  })

const onImport = (context: RequestContext, importId: string, minimum: "viewer" | "member") =>
  Effect.gen(function* () {
    const job = yield* read(PmBulkJob, importId, "get", {})
    const caller = yield* inWorkspace(context, job.workspaceId, minimum).pipe(
      Effect.mapError((e) => (e._tag === "Rejection" && e.code === "not_found" ? reject("not_found", "No such import") : e))
    )
    return { job, caller }
  })

const preview = (table: CsvTable, mapping: Readonly<Record<string, typeof ImportTarget.Type>>) => {
  const rows = csvRows(table, mapping)
  return {
    columns: table.headers.map((header) => ({
      header,
      target: mapping[header] ?? guessTarget(header),
      guessed: mapping[header] === undefined
    })),
    total: rows.length,
    rows: rows.slice(0, 20).map((r) => ({ row: r.row, task: r.body ?? null, error: r.error ?? null }))
  }
}

const { operation } = tagGroup("pm", "Import", importExamples)

export const importOperations = [
  operation({
    operationId: "previewCsvImport",
    method: "POST",
    path: "/v1/lists/{listId}/imports/csv/preview",
    summary: "Preview a CSV import: each column's task field (guessed or as mapped) and the first 20 rows as tasks",
    auth: "both",
    scopes: ["tasks:write"],
    params: ListParams,
    body: Schema.Struct({ csv: Csv, mapping: Schema.optionalKey(Mapping) }),
    responses: {
      200: {
        description: "Preview",
        schema: Schema.Struct({
          columns: Schema.Array(Schema.Struct({ header: Schema.String, target: ImportTarget, guessed: Schema.Boolean })),
          total: Schema.Number,
          rows: Schema.Array(
            Schema.Struct({
              row: Schema.Number,
              task: Schema.NullOr(Schema.Record(Schema.String, Schema.Unknown)),
              error: Schema.NullOr(Schema.String)
            })
          )
        }).annotate({ identifier: "CsvImportPreview" })
      }
    },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        yield* onList(context, params.listId, "member")
        return preview(yield* tableOf(body.csv), body.mapping ?? {})
      })
  }),
  operation({
    operationId: "importCsv",
    method: "POST",
    path: "/v1/lists/{listId}/imports/csv",
    summary: "Import tasks from a CSV into a list, as a background job",
    auth: "both",
    scopes: ["tasks:write"],
    params: ListParams,
    body: Schema.Struct({ csv: Csv, mapping: Schema.optionalKey(Mapping), idempotencyKey: Schema.optionalKey(IdempotencyKey) }),
    responses: { 202: { description: "Queued (or the job this idempotency key started)", schema: BulkJob } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const table = yield* tableOf(body.csv)
        return yield* start(context, params.listId, "csv", csvRows(table, body.mapping ?? {}), body.idempotencyKey)
      })
  }),
  operation({
    operationId: "importToolCsv",
    method: "POST",
    path: "/v1/lists/{listId}/imports/tool-csv",
    summary: "Import a ClickUp or Asana CSV export into a list, as a background job",
    description:
      "ClickUp: Task Name, Task Content, Status, Priority, Start Date, Due Date, Tags, Assignees. Asana: Name, Notes, Section/Column, Assignee Email, Start Date, Due Date, Tags, Completed At (completed tasks are closed). Statuses must exist in the list; assignees are members' e-mails.",
    auth: "both",
    scopes: ["tasks:write"],
    params: ListParams,
    body: Schema.Struct({ format: Schema.Literals(["clickup", "asana"]), csv: Csv, idempotencyKey: Schema.optionalKey(IdempotencyKey) }),
    responses: { 202: { description: "Queued", schema: BulkJob } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const table = yield* tableOf(body.csv)
        return yield* start(context, params.listId, body.format, toolCsvRows(body.format, table), body.idempotencyKey)
      })
  }),
  operation({
    operationId: "importTrelloBoard",
    method: "POST",
    path: "/v1/lists/{listId}/imports/trello",
    summary: "Import a Trello board export (JSON) into a list, as a background job",
    description:
      "Cards become tasks; a card's Trello list names its status when the target list has a status of that name; labels become tags; archived cards are skipped unless asked for.",
    auth: "both",
    scopes: ["tasks:write"],
    params: ListParams,
    body: Schema.Struct({
      board: Schema.Record(Schema.String, Schema.Unknown).annotate({
        description:
          "A Trello board export (Menu → Share → Export as JSON): lists [{id, name}], cards [{id, name, desc, idList, due, start, dueComplete, closed, labels}]; other keys are ignored"
      }),
      includeArchived: Schema.optionalKey(Schema.Boolean),
      idempotencyKey: Schema.optionalKey(IdempotencyKey)
    }),
    responses: { 202: { description: "Queued", schema: BulkJob } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const list = yield* read(PmList, params.listId, "locate", {})
        const board = yield* decodeBoard(body.board)
        const parsed = trelloRows(
          board,
          list.statuses.items.map((s) => s.name),
          { includeArchived: body.includeArchived ?? false }
        )
        return yield* start(context, params.listId, "trello", parsed, body.idempotencyKey)
      })
  }),
  operation({
    operationId: "getImport",
    method: "GET",
    path: "/v1/imports/{importId}",
    summary: "An import's progress and its result per row (task created, or why not)",
    auth: "both",
    scopes: ["tasks:read"],
    params: ImportParams,
    query: Schema.Struct({
      rowStatus: Schema.optionalKey(JobRow.fields.status),
      offset: Schema.optionalKey(Offset),
      limit: Schema.optionalKey(Limit)
    }),
    responses: { 200: { description: "Import", schema: ImportDetail }, 404: { description: "No such import" } },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const { job } = yield* onImport(context, params.importId, "viewer")
        const rows = yield* orDieSql(jobRows(job.id, { ...pageOf(query), ...(query.rowStatus ? { status: query.rowStatus } : {}) }))
        return { ...job, rows }
      })
  }),
  operation({
    operationId: "retryImport",
    method: "POST",
    path: "/v1/imports/{importId}/retry",
    summary: "Run a finished import again: failed rows are retried, imported rows are never imported twice",
    auth: "both",
    scopes: ["tasks:write"],
    params: ImportParams,
    responses: { 202: { description: "Queued again", schema: BulkJob }, 409: { description: "Still running" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { job, caller } = yield* onImport(context, params.importId, "member")
        if (job.listId !== null) yield* onList(context, job.listId, "member")
        return yield* send(PmBulkJob, job.id, "retry", caller.userId, {})
      })
  })
]
