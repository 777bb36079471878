/**
 * Exports: one page as Markdown, HTML or JSON, and a whole space as a zip,
 * built in the background by an export job.
 *
 * A space zip holds, for the pages the requester may read, one file per page
 * laid out like the page tree (`getting-started.md`, and its subpages under
 * `getting-started/`), an index (`index.md` / `index.html`) and `space.json`,
 * a manifest of the space and every page (id, title, parent, file). Markdown
 * files start with the page title as a level-1 heading, so importing the zip
 * again gives the same titles. The job row is written only by the job;
 * the zip is a blob; a job that stopped making progress (its node died)
 * reads as failed.
 */
import { Effect, Schema } from "effect"
import { LiveDocuments } from "../LiveDocuments.ts"
import { escapeHtml } from "../../richtext/RichText.ts"
import { BlobStore } from "../../persistence/BlobStore.ts"
import { query } from "../../persistence/Sql.ts"
import { reject } from "../../runtime/Rejection.ts"
import { type Reader, visibleTo } from "./VisiblePages.ts"
import type { PageRow, SpaceRow } from "./WikiRecords.ts"
import { PAGE_COLUMNS, toPage } from "./WikiQueries.ts"
import { writeZip, type ZipEntry } from "./ZipArchive.ts"

export const ExportFormat = Schema.Literals(["markdown", "html"]).annotate({
  description: "markdown: .md files; html: standalone .html files"
})
export type ExportFormat = typeof ExportFormat.Type

export const ExportStatus = Schema.Literals(["queued", "running", "succeeded", "failed"])

export const ExportJob = Schema.Struct({
  id: Schema.String,
  workspaceId: Schema.String,
  spaceId: Schema.String,
  format: ExportFormat,
  status: ExportStatus,
  pageCount: Schema.Number.annotate({ description: "Pages in the export (known once running)" }),
  pagesDone: Schema.Number,
  sizeBytes: Schema.NullOr(Schema.Number).annotate({ description: "Size of the zip once succeeded" }),
  error: Schema.NullOr(Schema.String),
  downloadUrl: Schema.NullOr(Schema.String).annotate({ description: "Where to download the zip once succeeded" }),
  createdAt: Schema.String,
  finishedAt: Schema.NullOr(Schema.String)
}).annotate({ identifier: "WikiExportJob" })
export type ExportJob = typeof ExportJob.Type

/** A running job silent for this long is taken as dead (its node stopped). */
const STALE_MILLIS = 10 * 60_000

type Row = Record<string, any>

export const jobView = (row: Row, origin: string): ExportJob => {
  const stale = (row.status === "running" || row.status === "queued") && Date.now() - Date.parse(row.progress_at) > STALE_MILLIS
  const status = stale ? "failed" : row.status
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    spaceId: row.space_id,
    format: row.format,
    status,
    pageCount: row.page_count,
    pagesDone: row.pages_done,
    sizeBytes: row.size_bytes === null ? null : Number(row.size_bytes),
    error: stale ? "The export stopped making progress (interrupted); start a new one" : row.error,
    downloadUrl: status === "succeeded" ? `${origin}/wiki/v1/exports/${row.id}?download=true` : null,
    createdAt: row.created_at,
    finishedAt: row.finished_at
  }
}

export const exportJobById = (jobId: string) =>
  Effect.map(query<Row>("SELECT * FROM wiki_export_jobs WHERE id = $1", [jobId]), (rows) => rows[0])

/** The space's pages `reader` may read, in tree order of siblings. */
export const readablePagesOfSpace = (reader: Reader, spaceId: string) =>
  Effect.gen(function* () {
    const visible = visibleTo(reader, 2)
    const rows = yield* query(
      `WITH RECURSIVE ${visible.ctes}
       SELECT ${PAGE_COLUMNS} FROM visible_pages WHERE space_id = $1 ORDER BY position, created_at, id`,
      [spaceId, ...visible.params]
    )
    return rows.map(toPage)
  })

/** A file name made of safe characters (the slug already is; this is for titles and keys). */
const fileSafe = (text: string) => text.replace(/[^\p{L}\p{N}._-]+/gu, "-").replace(/^-+|-+$/g, "") || "space"

/** A standalone HTML document around a page's HTML. */
export const htmlDocument = (title: string, body: string) =>
  `<!doctype html>
<html>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="Atrium wiki">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;line-height:1.6}pre{background:#f5f5f5;padding:1rem;overflow:auto}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.25rem .5rem}img{max-width:100%}</style>
</head>
<body>
<article>
<h1>${escapeHtml(title)}</h1>
${body}
</article>
</body>
</html>
`

/** A page as a Markdown file: its title as a level-1 heading, then its content. */
export const markdownDocument = (title: string, markdown: string) => `# ${title.replace(/([\\`*_[\]#])/g, "\\$1")}\n\n${markdown.trim()}\n`

interface Laid {
  readonly page: PageRow
  readonly file: string
  readonly depth: number
}

/** Files of the pages by tree: a page's subpages go in a folder named like its file. */
const layOut = (pages: ReadonlyArray<PageRow>, extension: string): Array<Laid> => {
  const ids = new Set(pages.map((page) => page.id))
  const children = new Map<string | null, Array<PageRow>>()
  for (const page of pages) {
    // A page whose parent the requester cannot read goes to the top.
    const parent = page.parentId !== null && ids.has(page.parentId) ? page.parentId : null
    children.set(parent, [...(children.get(parent) ?? []), page])
  }
  const laid: Array<Laid> = []
  const walk = (parentId: string | null, folder: string, depth: number) => {
    const used = new Set<string>()
    for (const page of children.get(parentId) ?? []) {
      let base = page.slug
      for (let n = 2; used.has(base) || base === "index"; n++) base = `${page.slug}-${n}`
      used.add(base)
      laid.push({ page, file: `${folder}${base}.${extension}`, depth })
      if (depth < 100) walk(page.id, `${folder}${base}/`, depth + 1)
    }
  }
  walk(null, "", 0)
  return laid
}

const relative = (fromFile: string, toFile: string) => {
  const up = fromFile.split("/").length - 1
  return `${"../".repeat(up)}${toFile}`
}

/** Builds the zip of `space` for `reader`, reporting progress after each page. */
export const buildSpaceZip = <E, R>(
  reader: Reader,
  space: SpaceRow,
  format: ExportFormat,
  progress: (done: number, total: number) => Effect.Effect<unknown, E, R>
) =>
  Effect.gen(function* () {
    const live = yield* LiveDocuments
    const pages = yield* readablePagesOfSpace(reader, space.id)
    const extension = format === "markdown" ? "md" : "html"
    const laid = layOut(pages, extension)
    yield* progress(0, laid.length)
    const entries: Array<ZipEntry> = []
    const encoder = new TextEncoder()
    let done = 0
    for (const { page, file } of laid) {
      const snapshot = yield* live.snapshot(page.id)
      const text = format === "markdown" ? markdownDocument(page.title, snapshot.markdown) : htmlDocument(page.title, snapshot.html)
      entries.push({ name: file, data: encoder.encode(text) })
      done++
      yield* progress(done, laid.length)
    }
    const index =
      format === "markdown"
        ? `# ${space.name}\n\n${space.description === "" ? "" : `${space.description}\n\n`}${laid
            .map(({ page, file, depth }) => `${"  ".repeat(depth)}- [${page.title.replace(/([\\[\]])/g, "\\$1")}](${encodeURI(file)})`)
            .join("\n")}\n`
        : htmlDocument(
            space.name,
            `<ul>\n${laid
              .map(
                ({ page, file, depth }) =>
                  `<li style="margin-left:${depth * 1.5}rem"><a href="${escapeHtml(encodeURI(relative("index.html", file)))}">${escapeHtml(page.title)}</a></li>`
              )
              .join("\n")}\n</ul>`
          )
    entries.push({ name: `index.${extension}`, data: encoder.encode(index) })
    const manifest = {
      format: "atrium.wiki.space-export",
      version: 1,
      exportedAt: new Date().toISOString(),
      fileFormat: format,
      space: {
        id: space.id,
        key: space.key,
        name: space.name,
        description: space.description,
        icon: space.icon,
        homePageId: space.homePageId
      },
      pages: laid.map(({ page, file }) => ({
        id: page.id,
        parentId: page.parentId,
        title: page.title,
        slug: page.slug,
        icon: page.icon,
        file,
        createdAt: page.createdAt,
        updatedAt: page.updatedAt
      }))
    }
    entries.push({ name: "space.json", data: encoder.encode(JSON.stringify(manifest, null, 2)) })
    return { zip: writeZip(entries), pageCount: laid.length, fileName: `${fileSafe(space.key)}-${format}-export.zip` }
  })

/**
 * Records a queued export job and runs it in the background (detached from
 * the request): progress, then the zip as a blob, then success or failure.
 */
export const startSpaceExport = (reader: Reader, space: SpaceRow, format: ExportFormat) =>
  Effect.gen(function* () {
    const id = crypto.randomUUID()
    const rows = yield* query(
      `INSERT INTO wiki_export_jobs (id, workspace_id, space_id, requested_by, format, status)
       VALUES ($1, $2, $3, $4, $5, 'queued') RETURNING *`,
      [id, space.workspaceId, space.id, reader.userId, format]
    )
    const progress = (done: number, total: number) =>
      query("UPDATE wiki_export_jobs SET status = 'running', page_count = $2, pages_done = $3, progress_at = now() WHERE id = $1", [
        id,
        total,
        done
      ])
    const run = Effect.gen(function* () {
      const built = yield* buildSpaceZip(reader, space, format, progress)
      const key = `wiki-exports/${id}.zip`
      yield* (yield* BlobStore).put(key, built.zip, "application/zip")
      yield* query(
        `UPDATE wiki_export_jobs SET status = 'succeeded', size_bytes = $2, blob_key = $3, finished_at = now(), progress_at = now() WHERE id = $1`,
        [id, built.zip.length, key]
      )
    }).pipe(
      Effect.catchCause((cause) =>
        Effect.andThen(
          Effect.logError(`wiki export ${id} failed`, cause),
          query("UPDATE wiki_export_jobs SET status = 'failed', error = $2, finished_at = now() WHERE id = $1", [
            id,
            "The export failed; try again"
          ]).pipe(Effect.ignore)
        )
      )
    )
    yield* Effect.forkDetach(run)
    return rows[0]!
  })

/** The zip of a finished job (409 while it is not done). */
export const exportZip = (row: Row) =>
  Effect.gen(function* () {
    if (row.status !== "succeeded" || row.blob_key === null) return yield* reject("conflict", "The export is not finished yet")
    const blob = yield* (yield* BlobStore).get(row.blob_key).pipe(Effect.orDie)
    if (blob === undefined) return yield* reject("not_found", "The export file is gone; start a new export")
    return blob.bytes
  })
