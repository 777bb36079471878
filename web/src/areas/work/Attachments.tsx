/**
 * A task's attachments: the list with size and who uploaded it, a download
 * for each (fetched with the session's token, so a plain link would not
 * do), upload from a file input or by dropping files on the area, and delete
 * for the uploader or an admin (what the API allows). Files go as raw bytes
 * with their type, as the upload operation takes them.
 */
import { useQueryClient } from "@tanstack/react-query"
import { type DragEvent, useRef, useState } from "react"
import { $api, client, data, messageOf } from "../../api/client.ts"
import type { components } from "../../api/generated/pm.ts"
import { saveFile } from "../common/saveFile.ts"
import { announce } from "../../ui/announce.tsx"
import { ErrorMessage } from "../../ui/Status.tsx"

type Attachment = components["schemas"]["Attachment"]

const sizeOf = (size: Attachment["size"]) => {
  const bytes = typeof size === "number" ? size : 0
  return bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`
}

export const Attachments = ({
  taskId,
  canUpload,
  canDelete
}: {
  readonly taskId: string
  readonly canUpload: boolean
  /** Whether the reader may delete this attachment (its uploader or an admin). */
  readonly canDelete: (attachment: Attachment) => boolean
}) => {
  const queryClient = useQueryClient()
  const attachments = $api.useQuery("get", "/pm/v1/tasks/{taskId}/attachments", { params: { path: { taskId } } })
  const [error, setError] = useState("")
  const [busy, setBusy] = useState(false)
  const [dragging, setDragging] = useState(false)
  const input = useRef<HTMLInputElement>(null)
  const reread = () => queryClient.invalidateQueries({ queryKey: ["get", "/pm/v1/tasks/{taskId}/attachments"] })

  const upload = async (files: ReadonlyArray<File>) => {
    if (files.length === 0) return
    setBusy(true)
    setError("")
    try {
      for (const file of files) {
        // The body's declared text stands for the file, which the serializer sends as it is.
        data(
          await client.POST("/pm/v1/tasks/{taskId}/attachments", {
            params: { path: { taskId }, query: { filename: file.name } },
            body: file.name,
            bodySerializer: () => file,
            headers: { "content-type": file.type === "" ? "application/octet-stream" : file.type }
          })
        )
        announce(`${file.name} attached`)
      }
      if (input.current) input.current.value = ""
    } catch (cause) {
      setError(messageOf(cause, "The upload failed"))
    } finally {
      setBusy(false)
      await reread()
    }
  }

  const download = async (attachment: Attachment) => {
    setError("")
    try {
      const blob = data(
        await client.GET("/pm/v1/tasks/{taskId}/attachments/{attachmentId}/content", {
          params: { path: { taskId, attachmentId: attachment.id } },
          parseAs: "blob"
        })
      )
      saveFile(blob, attachment.filename)
    } catch (cause) {
      setError(messageOf(cause, "The download failed"))
    }
  }

  const remove = async (attachment: Attachment) => {
    setError("")
    try {
      data(
        await client.DELETE("/pm/v1/tasks/{taskId}/attachments/{attachmentId}", {
          params: { path: { taskId, attachmentId: attachment.id } }
        })
      )
      announce(`${attachment.filename} deleted`)
    } catch (cause) {
      setError(messageOf(cause))
    } finally {
      await reread()
    }
  }

  const onDrop = (event: DragEvent<HTMLElement>) => {
    event.preventDefault()
    setDragging(false)
    if (canUpload && !busy) void upload([...event.dataTransfer.files])
  }
  const items = attachments.data?.items ?? []

  return (
    <section
      aria-labelledby={`attachments-${taskId}`}
      className={dragging ? "attachments dragging" : "attachments"}
      onDragOver={(event) => {
        if (!canUpload) return
        event.preventDefault()
        setDragging(true)
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <h3 id={`attachments-${taskId}`}>Attachments</h3>
      {attachments.error ? <ErrorMessage error={attachments.error} what="The attachments could not be loaded" /> : null}
      {attachments.data && items.length === 0 ? <p className="muted">No files attached.</p> : null}
      <ul className="plain" aria-label="Attached files">
        {items.map((attachment) => (
          <li key={attachment.id}>
            <button type="button" className="link" onClick={() => void download(attachment)}>
              {`Download ${attachment.filename}`}
            </button>{" "}
            <span className="muted small">
              · {sizeOf(attachment.size)} · {new Date(attachment.createdAt).toLocaleDateString()}
            </span>{" "}
            {canDelete(attachment) ? (
              <button type="button" className="link" onClick={() => void remove(attachment)}>
                Delete <span className="visually-hidden">{attachment.filename}</span>
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      {canUpload ? (
        <div className="drop-zone">
          <label className="field">
            <span>Attach files</span>
            <input ref={input} type="file" multiple disabled={busy} onChange={(event) => void upload([...(event.target.files ?? [])])} />
          </label>
          <p className="muted small">{busy ? "Uploading…" : "or drop files here (up to 25 MB each)"}</p>
        </div>
      ) : null}
      <p className="error" role="alert">
        {error}
      </p>
    </section>
  )
}
