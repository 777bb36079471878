/**
 * Import and export. Import: a Markdown or HTML file becomes a page, a zip of
 * them a page tree (`importWikiPage`, `importWikiZip`; the file is sent as
 * the body with its own content type). Export: the open page as Markdown or
 * HTML, the whole space as a zip (a background job, fetched when done); each
 * saved through a download link the browser follows once.
 */
import { useQueryClient } from "@tanstack/react-query"
import { type FormEvent, useState } from "react"
import { useNavigate, useParams } from "react-router"
import { client, data, messageOf } from "../../api/client.ts"
import { pageHref } from "../common/links.ts"
import { saveFile } from "../common/saveFile.ts"
import { announce } from "../../ui/announce.tsx"
import { treeKey } from "./PageTree.tsx"

const typeOf = (file: File): "text/markdown" | "text/html" | "application/zip" | undefined => {
  const name = file.name.toLowerCase()
  if (name.endsWith(".zip")) return "application/zip"
  if (name.endsWith(".html") || name.endsWith(".htm")) return "text/html"
  if (name.endsWith(".md") || name.endsWith(".markdown") || name.endsWith(".txt")) return "text/markdown"
  return undefined
}

export const ImportPages = ({ spaceId }: { readonly spaceId: string }) => {
  const { workspaceId = "" } = useParams()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const [error, setError] = useState("")
  const [busy, setBusy] = useState(false)
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const file = new FormData(event.currentTarget).get("file")
    if (!(file instanceof File) || file.size === 0) return setError("Choose a file first")
    const type = typeOf(file)
    if (type === undefined) return setError("Import takes Markdown (.md), HTML (.html) or a zip of them")
    setBusy(true)
    setError("")
    try {
      const headers = { "content-type": type }
      if (type === "application/zip") {
        // The zip goes as it is: the body's declared text stands for the file, which the serializer sends instead.
        const result = data(
          await client.POST("/wiki/v1/spaces/{spaceId}/import/zip", {
            params: { path: { spaceId } },
            body: file.name,
            bodySerializer: () => file,
            headers
          })
        )
        announce(`${result.pages.length} pages imported`)
      } else {
        const { page } = data(
          await client.POST("/wiki/v1/spaces/{spaceId}/import", {
            params: { path: { spaceId }, query: { filename: file.name } },
            body: await file.text(),
            bodySerializer: (text) => text,
            headers
          })
        )
        announce(`${page.title} imported`)
        navigate(pageHref(workspaceId, spaceId, page.id))
      }
      await queryClient.invalidateQueries({ queryKey: treeKey(spaceId) })
      event.currentTarget?.reset()
    } catch (cause) {
      setError(messageOf(cause, "The import failed"))
    } finally {
      setBusy(false)
    }
  }
  return (
    <details className="panel">
      <summary>Import pages</summary>
      <form className="stack" onSubmit={submit}>
        <label>
          Markdown, HTML or zip file
          <input type="file" name="file" accept=".md,.markdown,.txt,.html,.htm,.zip" />
        </label>
        <button type="submit" disabled={busy}>
          Import
        </button>
        <p className="error" role="alert">
          {error}
        </p>
      </form>
    </details>
  )
}

type ExportJob = NonNullable<Awaited<ReturnType<typeof startExport>>["data"]>
const startExport = (spaceId: string) =>
  client.POST("/wiki/v1/spaces/{spaceId}/export", { params: { path: { spaceId } }, body: { format: "markdown" } })
const isJob = (value: unknown): value is ExportJob => typeof value === "object" && value !== null && "status" in value && "id" in value

const slugOf = (title: string) => title.replace(/[^\w-]+/g, "-").replace(/^-+|-+$/g, "") || "page"

export const ExportPage = ({ pageId, title, spaceId }: { readonly pageId: string; readonly title: string; readonly spaceId: string }) => {
  const [error, setError] = useState("")
  const [busy, setBusy] = useState("")
  const run = async (what: string, work: () => Promise<void>) => {
    setBusy(what)
    setError("")
    try {
      await work()
      announce(`${what} ready`)
    } catch (cause) {
      setError(messageOf(cause, "The export failed"))
    } finally {
      setBusy("")
    }
  }
  const markdown = () =>
    run("Markdown", async () => {
      const text = data(await client.GET("/wiki/v1/pages/{pageId}/export/markdown", { params: { path: { pageId } }, parseAs: "text" }))
      saveFile(new Blob([text], { type: "text/markdown" }), `${slugOf(title)}.md`)
    })
  const html = () =>
    run("HTML", async () => {
      const text = data(await client.GET("/wiki/v1/pages/{pageId}/export/html", { params: { path: { pageId } }, parseAs: "text" }))
      saveFile(new Blob([text], { type: "text/html" }), `${slugOf(title)}.html`)
    })
  const zip = () =>
    run("Space export", async () => {
      let job = data(await startExport(spaceId))
      // The space is exported in the background; its job is read until it is done.
      while (job.status === "queued" || job.status === "running") {
        await new Promise((resolve) => setTimeout(resolve, 500))
        const next: unknown = data(await client.GET("/wiki/v1/exports/{exportId}", { params: { path: { exportId: job.id } } }))
        if (!isJob(next)) throw new Error("The export's state could not be read")
        job = next
      }
      if (job.status === "failed") throw new Error(job.error ?? "The export failed")
      const zipped: unknown = data(
        await client.GET("/wiki/v1/exports/{exportId}", {
          params: { path: { exportId: job.id }, query: { download: "true" } },
          parseAs: "blob"
        })
      )
      if (!(zipped instanceof Blob)) throw new Error("The export was not a file")
      saveFile(zipped, "space.zip")
    })
  return (
    <section aria-labelledby="export-title" className="panel">
      <h2 id="export-title">Export</h2>
      <div className="row">
        <button type="button" onClick={() => void markdown()} disabled={busy !== ""}>
          Download as Markdown
        </button>
        <button type="button" onClick={() => void html()} disabled={busy !== ""}>
          Download as HTML
        </button>
        <button type="button" onClick={() => void zip()} disabled={busy !== ""}>
          Download the space (zip)
        </button>
      </div>
      <p role="status" className="muted small">
        {busy !== "" ? `Preparing ${busy}…` : ""}
      </p>
      <p className="error" role="alert">
        {error}
      </p>
    </section>
  )
}
