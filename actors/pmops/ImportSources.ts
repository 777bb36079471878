/**
 * What imports read: CSV (RFC 4180: quoted fields, doubled quotes, CR/LF),
 * mapped column by column onto task fields; ClickUp and Asana CSV exports
 * (their own headers, mapped by preset); Trello board JSON (cards → tasks,
 * the card's Trello list → the status of that name, labels → tags). Each
 * source row becomes a task body (the create-task request's shape) or a
 * per-row error; the write path checks the rest.
 */
import { Schema } from "effect"

export const ImportTarget = Schema.Literals([
  "name",
  "description",
  "status",
  "priority",
  "startDate",
  "dueDate",
  "tags",
  "assignees",
  "ignore"
])
export type ImportTarget = typeof ImportTarget.Type

/** A task body as the create-task operation takes it (checked later, row by row). */
export type RowBody = Record<string, unknown>

export interface ParsedRow {
  readonly row: number
  readonly body?: RowBody
  readonly error?: string
}

/** RFC 4180 CSV → rows of cells. Throws on an unterminated quote. */
export const parseCsv = (text: string): Array<Array<string>> => {
  const rows: Array<Array<string>> = []
  let row: Array<string> = []
  let cell = ""
  let quoted = false
  const input = text.startsWith("\uFEFF") ? text.slice(1) : text
  for (let i = 0; i < input.length; i++) {
    const ch = input[i]!
    if (quoted) {
      if (ch === '"') {
        if (input[i + 1] === '"') {
          cell += '"'
          i++
        } else quoted = false
      } else cell += ch
    } else if (ch === '"' && cell === "") quoted = true
    else if (ch === ",") {
      row.push(cell)
      cell = ""
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && input[i + 1] === "\n") i++
      row.push(cell)
      rows.push(row)
      row = []
      cell = ""
    } else cell += ch
  }
  if (quoted) throw new Error("a quoted field is never closed")
  if (cell !== "" || row.length > 0) {
    row.push(cell)
    rows.push(row)
  }
  return rows.filter((r) => r.some((c) => c.trim() !== ""))
}

const headerGuesses: ReadonlyArray<readonly [RegExp, ImportTarget]> = [
  [/^(task )?(name|title|summary|subject)$/i, "name"],
  [/^(description|details|notes|task content|content|body)$/i, "description"],
  [/^(status|state|section\/column|column|stage)$/i, "status"],
  [/^(priority|severity)$/i, "priority"],
  [/^(start|start date|starts)$/i, "startDate"],
  [/^(due|due date|deadline|due by)$/i, "dueDate"],
  [/^(tags?|labels?)$/i, "tags"],
  [/^(assignees?|assignee email|assigned to|owner)$/i, "assignees"]
]

/** The target a column header most likely means (ignore when none). */
export const guessTarget = (header: string): ImportTarget => headerGuesses.find(([pattern]) => pattern.test(header.trim()))?.[1] ?? "ignore"

const list = (value: string) =>
  value
    .split(/[,;]/)
    .map((v) => v.trim())
    .filter((v) => v.length > 0)

const priorities: Record<string, string> = { "1": "urgent", "2": "high", "3": "normal", "4": "low", medium: "normal" }
const priorityOf = (value: string) => {
  const lower = value.trim().toLowerCase()
  return priorities[lower] ?? lower
}

/** Dates as exported (ISO, or what Date can read such as "12/24/2026"), as ISO. */
const dateOf = (value: string) => {
  const trimmed = value.trim()
  if (/^\d{4}-\d{2}-\d{2}/.test(trimmed)) return trimmed
  const parsed = Date.parse(trimmed)
  return Number.isNaN(parsed) ? trimmed : new Date(parsed).toISOString()
}

/** One mapped CSV row → a task body. */
const bodyOf = (cells: ReadonlyArray<string>, mapping: ReadonlyArray<ImportTarget>): RowBody => {
  const body: RowBody = {}
  mapping.forEach((target, column) => {
    const value = (cells[column] ?? "").trim()
    if (target === "ignore" || value === "") return
    switch (target) {
      case "tags":
        body.tags = [...new Set([...((body.tags as Array<string>) ?? []), ...list(value)])]
        break
      case "assignees":
        body.assigneeEmails = [...new Set([...((body.assigneeEmails as Array<string>) ?? []), ...list(value)])]
        break
      case "priority":
        body.priority = priorityOf(value)
        break
      case "startDate":
      case "dueDate":
        body[target] = dateOf(value)
        break
      default:
        body[target] = body[target] === undefined ? value : `${body[target]}\n${value}`
    }
  })
  return body
}

export interface CsvTable {
  readonly headers: ReadonlyArray<string>
  readonly rows: ReadonlyArray<ReadonlyArray<string>>
}

export const csvTable = (text: string): CsvTable => {
  const [headers = [], ...rows] = parseCsv(text)
  return { headers: headers.map((h) => h.trim()), rows }
}

/** Rows of a CSV under a mapping (by header name; unmapped headers guessed). Rows are numbered from 1 after the header. */
export const csvRows = (table: CsvTable, mapping: Readonly<Record<string, ImportTarget>> = {}): Array<ParsedRow> => {
  const targets = table.headers.map((h) => mapping[h] ?? guessTarget(h))
  return table.rows.map((cells, index) => {
    const body = bodyOf(cells, targets)
    return body.name === undefined ? { row: index + 1, error: "the row has no task name" } : { row: index + 1, body }
  })
}

/** ClickUp and Asana CSV exports: their headers, mapped by preset (completed Asana tasks are closed). */
const presets: Record<"clickup" | "asana", Record<string, ImportTarget>> = {
  clickup: {
    "Task Name": "name",
    "Task Content": "description",
    Status: "status",
    Priority: "priority",
    "Start Date": "startDate",
    "Due Date": "dueDate",
    Tags: "tags",
    Assignees: "assignees"
  },
  asana: {
    Name: "name",
    Notes: "description",
    "Section/Column": "status",
    "Start Date": "startDate",
    "Due Date": "dueDate",
    Tags: "tags",
    "Assignee Email": "assignees"
  }
}

export const toolCsvRows = (format: "clickup" | "asana", table: CsvTable): Array<ParsedRow> => {
  const preset = presets[format]
  const mapping = Object.fromEntries(table.headers.map((h) => [h, preset[h] ?? ("ignore" as const)]))
  const completedAt = format === "asana" ? table.headers.indexOf("Completed At") : -1
  return csvRows(table, mapping).map((parsed, index) =>
    parsed.body && completedAt >= 0 && (table.rows[index]![completedAt] ?? "").trim() !== ""
      ? { ...parsed, body: { ...parsed.body, status: "closed" } }
      : parsed
  )
}

/** The part of a Trello board export an import reads. */
export const TrelloBoard = Schema.Struct({
  name: Schema.optionalKey(Schema.String),
  lists: Schema.optionalKey(
    Schema.Array(Schema.Struct({ id: Schema.String, name: Schema.String, closed: Schema.optionalKey(Schema.Boolean) }))
  ),
  cards: Schema.Array(
    Schema.Struct({
      id: Schema.String,
      name: Schema.optionalKey(Schema.String),
      desc: Schema.optionalKey(Schema.String),
      idList: Schema.optionalKey(Schema.String),
      due: Schema.optionalKey(Schema.NullOr(Schema.String)),
      start: Schema.optionalKey(Schema.NullOr(Schema.String)),
      dueComplete: Schema.optionalKey(Schema.Boolean),
      closed: Schema.optionalKey(Schema.Boolean),
      labels: Schema.optionalKey(
        Schema.Array(Schema.Struct({ name: Schema.optionalKey(Schema.String), color: Schema.optionalKey(Schema.NullOr(Schema.String)) }))
      )
    })
  ).check(Schema.isMaxLength(5000))
}).annotate({ identifier: "TrelloBoard", description: "A Trello board export (Menu → Share → Export as JSON); other keys are ignored" })
export type TrelloBoard = typeof TrelloBoard.Type

/** Cards → task bodies: the card's Trello list names its status (when the target list has that status), labels become tags. */
export const trelloRows = (
  board: TrelloBoard,
  statusNames: ReadonlyArray<string>,
  options: { includeArchived: boolean }
): Array<ParsedRow> => {
  const listNames = new Map((board.lists ?? []).map((l) => [l.id, l.name]))
  const known = new Map(statusNames.map((s) => [s.toLowerCase(), s]))
  return board.cards
    .filter((card) => options.includeArchived || !card.closed)
    .map((card, index) => {
      const name = (card.name ?? "").trim()
      if (name === "") return { row: index + 1, error: `card ${card.id} has no name` }
      const body: RowBody = { name }
      if (card.desc) body.description = card.desc
      if (card.due) body.dueDate = card.due
      if (card.start) body.startDate = card.start
      const tags = [...new Set((card.labels ?? []).map((l) => (l.name ?? "").trim() || (l.color ?? "")).filter((t) => t !== ""))]
      if (tags.length) body.tags = tags
      const status = card.dueComplete ? undefined : known.get((listNames.get(card.idList ?? "") ?? "").toLowerCase())
      if (status) body.status = status
      else if (card.dueComplete && known.has("done")) body.status = known.get("done")
      return { row: index + 1, body }
    })
}
