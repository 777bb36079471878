/**
 * Imports: Markdown and HTML files become pages; a zip of them becomes a page
 * tree (a file `guide.md` and a folder `guide/` beside it: the folder's files
 * are the guide's subpages; a folder without a file becomes an empty page).
 * Pages are created the way the editing operations create them — the space
 * places the page (WikiSpace.createPage), the page writes its content through
 * its live document (WikiPage.setContent) — so versions, links and the search
 * text follow as for any new page.
 *
 * A page's title is the one given, else the file's leading level-1 heading
 * (Markdown `# Title`, HTML `<title>` or `<h1>`; removed from the body),
 * else the file name.
 */
import { Effect } from "effect"
import { htmlToDoc, htmlToText, markdownToDoc } from "../../richtext/RichText.ts"
import type { ProseMirrorNode } from "../LiveDocuments.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { reject } from "../../runtime/Rejection.ts"
import { textProblem, unstorableText } from "../StorableText.ts"
import { WikiPage } from "./WikiPage.ts"
import { WikiSpace } from "./WikiSpace.ts"
import { InvalidZip, readZip } from "./ZipArchive.ts"

export type ImportFormat = "markdown" | "html"

export const MARKDOWN_TYPES = ["text/markdown", "text/x-markdown", "text/plain"] as const
export const HTML_TYPES = ["text/html", "application/xhtml+xml"] as const
export const ZIP_TYPES = ["application/zip", "application/x-zip-compressed"] as const

/** Largest single file, and largest zip (both as uploaded). */
export const MAX_FILE_BYTES = 5 * 1024 * 1024
export const MAX_ZIP_BYTES = 20 * 1024 * 1024
/** Limits on what a zip may unpack to. */
export const MAX_ZIP_PAGES = 500
export const MAX_UNPACKED_BYTES = 100 * 1024 * 1024

const MAX_TITLE = 255

export const formatOfContentType = (contentType: string): ImportFormat =>
  (HTML_TYPES as ReadonlyArray<string>).includes(contentType) ? "html" : "markdown"

const formatOfFile = (name: string): ImportFormat | undefined =>
  /\.(md|markdown|mdown|mkd|txt)$/i.test(name) ? "markdown" : /\.(html?|xhtml)$/i.test(name) ? "html" : undefined

const plainText = (node: ProseMirrorNode): string => node.text ?? (node.content ?? []).map(plainText).join(node.type === "doc" ? "\n" : "")

const clampTitle = (title: string) => {
  const trimmed = title.replace(/\s+/g, " ").trim()
  return trimmed.length > MAX_TITLE ? trimmed.slice(0, MAX_TITLE - 1).trimEnd() + "…" : trimmed
}

/** The document of a file, and the title it gives itself (its leading level-1 heading), if any. */
export const readDocument = (format: ImportFormat, source: string): { doc: ProseMirrorNode; title: string | undefined } => {
  let htmlTitle: string | undefined
  let body = source
  if (format === "html") {
    const titleTag = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(source)
    if (titleTag) htmlTitle = clampTitle(htmlToText(titleTag[1]!))
    const bodyTag = /<body[^>]*>([\s\S]*)<\/body>/i.exec(source)
    body = bodyTag ? bodyTag[1]! : source.replace(/<head[\s\S]*?<\/head>/i, "")
  }
  const doc = format === "markdown" ? markdownToDoc(body) : htmlToDoc(body)
  const blocks = doc.content ?? []
  const first = blocks[0]
  if (first?.type === "heading" && Number(first.attrs?.level ?? 1) === 1) {
    const heading = clampTitle(plainText(first))
    // The heading is the title: keep it out of the body (unless an HTML <title> says otherwise).
    if (heading !== "" && (htmlTitle === undefined || htmlTitle === heading)) {
      return { doc: { ...doc, content: blocks.slice(1) }, title: heading }
    }
  }
  return { doc, title: htmlTitle === "" ? undefined : htmlTitle }
}

const titleOfFileName = (name: string) => clampTitle(name.replace(/\.[^.]+$/, "")) || "Untitled"

export interface ImportedPage {
  readonly id: string
  readonly title: string
  readonly parentId: string | null
  readonly source: string
}

/** Creates one page under `parentId` of the space and writes its content. */
export const createImportedPage = (input: {
  readonly by: string
  readonly spaceId: string
  readonly parentId: string | null
  readonly title: string
  readonly doc: ProseMirrorNode
}) =>
  Effect.gen(function* () {
    const actors = yield* ActorSystem
    const pageId = crypto.randomUUID()
    const page = yield* actors.ask(WikiSpace, input.spaceId, "createPage", {
      by: input.by,
      pageId,
      parentId: input.parentId,
      title: input.title,
      icon: null,
      coverImage: null,
      index: null
    })
    if ((input.doc.content ?? []).length > 0) {
      yield* actors.ask(WikiPage, pageId, "setContent", { by: input.by, content: input.doc, mode: "replace", reason: "created" })
    }
    return page
  })

/** Imports one Markdown or HTML file as a page. */
export const importFile = (input: {
  readonly by: string
  readonly spaceId: string
  readonly parentId: string | null
  readonly format: ImportFormat
  readonly bytes: Uint8Array
  readonly title: string | undefined
  readonly fileName: string | undefined
}) =>
  Effect.gen(function* () {
    const source = yield* decodeUtf8(input.bytes, "body")
    const { doc, title } = yield* storable(readDocument(input.format, source), "body")
    const finalTitle =
      input.title !== undefined ? clampTitle(input.title) : (title ?? (input.fileName ? titleOfFileName(input.fileName) : "Untitled"))
    const page = yield* createImportedPage({ by: input.by, spaceId: input.spaceId, parentId: input.parentId, title: finalTitle, doc })
    return { id: page.id, title: page.title, parentId: page.parentId, source: input.fileName ?? "upload" } satisfies ImportedPage
  })

/** Strict UTF-8, and text a store can hold (the rule of every request: no NUL, no unpaired surrogate). */
const decodeUtf8 = (bytes: Uint8Array, path: string) =>
  Effect.flatMap(
    Effect.try({
      try: () => new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes),
      catch: () => reject("invalid", "The file is not valid UTF-8 text", [{ path, message: "not UTF-8" }])
    }),
    (text) => {
      const problem = textProblem(text)
      return problem === undefined
        ? Effect.succeed(text)
        : Effect.fail(reject("invalid", `The file ${problem}`, [{ path, message: problem }]))
    }
  )

/** What the parser made of the text must be storable too (titles, attributes). */
const storable = <A extends { readonly doc: ProseMirrorNode; readonly title: string | undefined }>(read: A, path: string) => {
  const problem = unstorableText({ title: read.title, doc: read.doc }, path)[0]
  return problem === undefined
    ? Effect.succeed(read)
    : Effect.fail(reject("invalid", `The file's ${problem.path.slice(path.length + 1).split(".")[0]} ${problem.message}`, [problem]))
}

interface Node {
  readonly path: string
  readonly name: string
  file?: { readonly name: string; readonly format: ImportFormat; readonly data: Uint8Array }
  readonly children: Map<string, Node>
}

/** Imports a zip of Markdown/HTML files as a page tree under `parentId`. Other files are reported as skipped. */
export const importZip = (input: {
  readonly by: string
  readonly spaceId: string
  readonly parentId: string | null
  readonly bytes: Uint8Array
}) =>
  Effect.gen(function* () {
    const entries = yield* Effect.try({
      try: () => readZip(input.bytes, MAX_UNPACKED_BYTES),
      catch: (error) =>
        reject("invalid", error instanceof InvalidZip ? `Unreadable zip: ${error.message}` : "Unreadable zip", [
          { path: "body", message: "not a readable zip" }
        ])
    })
    const skipped: Array<{ file: string; reason: string }> = []
    const root: Node = { path: "", name: "", children: new Map() }
    const hasManifest = entries.some((entry) => entry.name === "space.json")
    let files = 0
    for (const entry of entries) {
      const segments = entry.name.split("/").filter((segment) => segment !== "" && segment !== ".")
      if (segments.length === 0) continue
      const nameProblem = textProblem(entry.name)
      if (nameProblem !== undefined) {
        skipped.push({ file: entry.name, reason: `its name ${nameProblem}` })
        continue
      }
      if (segments.some((segment) => segment === ".." || segment.startsWith(".") || segment === "__MACOSX")) {
        skipped.push({ file: entry.name, reason: "hidden or unsafe path" })
        continue
      }
      const fileName = segments[segments.length - 1]!
      const format = formatOfFile(fileName)
      // Our own exports carry a table of contents and a manifest at the top: not pages.
      if (hasManifest && segments.length === 1 && (fileName === "space.json" || /^index\.(md|html)$/.test(fileName))) continue
      if (format === undefined) {
        skipped.push({ file: entry.name, reason: "not a Markdown or HTML file" })
        continue
      }
      if (++files > MAX_ZIP_PAGES) return yield* reject("too_large", `A zip may hold at most ${MAX_ZIP_PAGES} pages`)
      let node = root
      for (const folder of segments.slice(0, -1)) {
        let next = node.children.get(folder)
        if (next === undefined) {
          next = { path: `${node.path}${folder}/`, name: folder, children: new Map() }
          node.children.set(folder, next)
        }
        node = next
      }
      // `guide.md` and the folder `guide/` are one page.
      const stem = fileName.replace(/\.[^.]+$/, "")
      let target = node.children.get(stem)
      if (target === undefined) {
        target = { path: `${node.path}${stem}/`, name: stem, children: new Map() }
        node.children.set(stem, target)
      }
      if (target.file !== undefined) {
        skipped.push({ file: entry.name, reason: `another file already became the page "${stem}"` })
        continue
      }
      target.file = { name: entry.name, format, data: entry.data }
    }
    if (files === 0) return yield* reject("invalid", "The zip holds no Markdown or HTML files", [{ path: "body", message: "no pages" }])
    // Our own exports list the pages in tree order: keep it; otherwise by name.
    const order = new Map<string, number>()
    const manifest = entries.find((entry) => entry.name === "space.json")
    if (manifest !== undefined) {
      try {
        const parsed = JSON.parse(new TextDecoder().decode(manifest.data)) as { pages?: Array<{ file?: unknown }> }
        for (const [index, page] of (parsed.pages ?? []).entries()) {
          if (typeof page.file === "string") order.set(page.file, index)
        }
      } catch {
        // not our manifest: name order
      }
    }
    const ordered = (nodes: Iterable<Node>) =>
      [...nodes].sort(
        (a, b) => (order.get(a.file?.name ?? "") ?? Infinity) - (order.get(b.file?.name ?? "") ?? Infinity) || a.name.localeCompare(b.name)
      )
    const pages: Array<ImportedPage> = []
    const create = (node: Node, parentId: string | null): Effect.Effect<void, any, any> =>
      Effect.gen(function* () {
        let doc: ProseMirrorNode = { type: "doc", content: [] }
        let title = titleOfFileName(node.name)
        if (node.file !== undefined) {
          const fileName = node.file.name
          const read = yield* decodeUtf8(node.file.data, "body").pipe(
            Effect.flatMap((text) => storable(readDocument(node.file!.format, text), "body")),
            // One bad file is reported, not fatal: the page keeps its place in the tree, empty.
            Effect.catch((refused) =>
              Effect.as(
                Effect.sync(() => skipped.push({ file: fileName, reason: refused.message })),
                undefined
              )
            )
          )
          if (read !== undefined) {
            doc = read.doc
            title = read.title ?? title
          }
        }
        const page = yield* createImportedPage({ by: input.by, spaceId: input.spaceId, parentId, title, doc })
        pages.push({ id: page.id, title: page.title, parentId: page.parentId, source: node.file?.name ?? node.path })
        for (const child of ordered(node.children.values())) yield* create(child, page.id)
      })
    for (const child of ordered(root.children.values())) yield* create(child, input.parentId)
    return { pages, skipped }
  })
