/**
 * A page's comment threads: a thread starts on the text selected in the
 * editor (anchored by its quote; the server follows the anchor through later
 * edits) or on the page as a whole; each thread shows its quote, can select
 * that text in the editor, takes replies, and is resolved or reopened.
 * Open threads by default, resolved ones on request. Typing `@` offers the
 * workspace's members (the server mentions those who can read the page);
 * authors edit and delete their own comments, space admins delete any.
 */
import { useQueryClient } from "@tanstack/react-query"
import { type Editor, useEditorState } from "@tiptap/react"
import { type FormEvent, useState } from "react"
import { $api, client, data, messageOf } from "../../api/client.ts"
import type { components } from "../../api/generated/wiki.ts"
import { currentSession } from "../../api/session.ts"
import { announce } from "../../ui/announce.tsx"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"
import { type Mentionable, MentionField } from "../common/MentionField.tsx"
import { when } from "../common/time.ts"

type Thread = components["schemas"]["WikiCommentThread"]
type Comment = components["schemas"]["WikiComment"]
type Show = "open" | "resolved"

const HINT = "Select text in the page to anchor a comment to it."

/** The document range showing `quote` (text across blocks joined by a newline, as the server quotes it), if any. */
const rangeOf = (editor: Editor, quote: string): { from: number; to: number } | undefined => {
  let flat = ""
  const positions: Array<number> = []
  editor.state.doc.descendants((node, pos) => {
    if (node.isText) {
      for (let i = 0; i < node.text!.length; i++) positions.push(pos + i)
      flat += node.text
    } else if (node.isBlock && flat !== "" && !flat.endsWith("\n")) {
      positions.push(pos)
      flat += "\n"
    }
  })
  const start = flat.indexOf(quote)
  if (start === -1 || quote === "") return undefined
  return { from: positions[start]!, to: positions[start + quote.length - 1]! + 1 }
}

const commentsPath = "/wiki/v1/pages/{pageId}/comments"

/** Who may be mentioned: the workspace's members (the wiki's own list for pickers). */
const useMentionable = (workspaceId: string): ReadonlyArray<Mentionable> =>
  $api.useQuery("get", "/wiki/v1/users", { params: { query: { workspaceId, limit: "100" } } }).data?.items ?? []

/** What a reader may do to one comment: its author edits and deletes it, a space admin deletes it. */
interface Rights {
  readonly userId: string | undefined
  readonly isSpaceAdmin: boolean
}

export const PageComments = ({
  pageId,
  workspaceId,
  isSpaceAdmin,
  editor
}: {
  readonly pageId: string
  readonly workspaceId: string
  readonly isSpaceAdmin: boolean
  readonly editor: Editor
}) => {
  const queryClient = useQueryClient()
  const members = useMentionable(workspaceId)
  const rights: Rights = { userId: currentSession()?.user.id, isSpaceAdmin }
  const [show, setShow] = useState<Show>("open")
  const threads = $api.useQuery("get", commentsPath, { params: { path: { pageId }, query: { status: show } } })
  const selected = useEditorState({
    editor,
    selector: ({ editor: e }) => {
      const { from, to } = e.state.selection
      return from === to ? "" : e.state.doc.textBetween(from, to, "\n").slice(0, 500)
    }
  })
  const [body, setBody] = useState("")
  const [error, setError] = useState("")
  const [busy, setBusy] = useState(false)

  const reload = () => queryClient.invalidateQueries({ predicate: (query) => query.queryKey[1] === commentsPath })

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setError("")
    setBusy(true)
    try {
      data(
        await client.POST(commentsPath, {
          params: { path: { pageId } },
          body: { body, ...(selected !== "" ? { anchor: { quote: selected } } : {}) }
        })
      )
      setBody("")
      announce("Comment added")
      setShow("open")
      await reload()
    } catch (cause) {
      setError(messageOf(cause, "Could not post the comment"))
    } finally {
      setBusy(false)
    }
  }

  return (
    <section className="comments-panel card" aria-labelledby="comments-title">
      <h2 id="comments-title">Comments</h2>
      <label className="field inline">
        <span>Show</span>
        <select value={show} onChange={(event) => setShow(event.target.value as Show)}>
          <option value="open">Open threads</option>
          <option value="resolved">Resolved threads</option>
        </select>
      </label>
      {threads.isPending ? <Loading what="comments" /> : null}
      {threads.error ? <ErrorMessage error={threads.error} what="The comments could not be loaded" /> : null}
      {threads.data?.items.length === 0 ? (
        <p className="muted small">{show === "open" ? "No open comments." : "No resolved comments."}</p>
      ) : null}
      {threads.data && threads.data.items.length > 0 ? (
        <ol className="comment-list" aria-label={show === "open" ? "Open comments" : "Resolved comments"}>
          {threads.data.items.map((thread) => (
            <CommentThread key={thread.id} thread={thread} editor={editor} members={members} rights={rights} onChanged={reload} />
          ))}
        </ol>
      ) : null}
      <form onSubmit={submit}>
        <p className="quote muted">{selected === "" ? HINT : `On: “${selected}”`}</p>
        <MentionField label="Comment" name="comment" value={body} onChange={setBody} members={members} maxLength={10000} />
        <button type="submit" disabled={busy || body.trim() === ""}>
          Comment
        </button>
        <p className="error" role="alert">
          {error}
        </p>
      </form>
    </section>
  )
}

const CommentThread = ({
  thread,
  editor,
  members,
  rights,
  onChanged
}: {
  readonly thread: Thread
  readonly editor: Editor
  readonly members: ReadonlyArray<Mentionable>
  readonly rights: Rights
  readonly onChanged: () => Promise<unknown>
}) => {
  const [reply, setReply] = useState("")
  const [error, setError] = useState("")
  const [busy, setBusy] = useState(false)
  const commentId = thread.id
  const author = thread.deleted ? "(deleted)" : thread.author.name

  const act = async (work: () => Promise<unknown>, said: string, fallback: string) => {
    setError("")
    setBusy(true)
    try {
      await work()
      announce(said)
      await onChanged()
    } catch (cause) {
      setError(messageOf(cause, fallback))
    } finally {
      setBusy(false)
    }
  }

  const showInText = () => {
    if (thread.anchor === null) return
    // The server's current range when it still holds the quoted text; otherwise the quote found in the text.
    const { from, to, text, quote } = thread.anchor
    const range =
      from !== null && to !== null && typeof from === "number" && typeof to === "number" && text === quote
        ? { from, to }
        : rangeOf(editor, quote)
    if (range === undefined) return announce("The quoted text is no longer in the page")
    editor.chain().focus().setTextSelection(range).scrollIntoView().run()
  }

  const sendReply = (event: FormEvent) => {
    event.preventDefault()
    void act(
      async () => {
        data(await client.POST("/wiki/v1/comments/{commentId}/replies", { params: { path: { commentId } }, body: { body: reply } }))
        setReply("")
      },
      "Reply added",
      "Could not post the reply"
    )
  }

  return (
    <li className="comment" aria-label={`Comment by ${author}`}>
      {thread.anchor ? (
        <blockquote>
          {thread.anchor.quote}
          {thread.anchor.detached ? <span className="small"> (text since removed)</span> : null}
        </blockquote>
      ) : null}
      <CommentBody comment={thread} members={members} rights={rights} onChanged={onChanged} />
      {thread.replies.length > 0 ? (
        <ol className="replies" aria-label="Replies">
          {thread.replies.map((answer) => (
            <li key={answer.id} aria-label={`Reply by ${answer.deleted ? "(deleted)" : answer.author.name}`}>
              <CommentBody comment={answer} members={members} rights={rights} onChanged={onChanged} />
            </li>
          ))}
        </ol>
      ) : null}
      <div className="comment-actions">
        {thread.anchor && !thread.anchor.detached ? (
          <button type="button" onClick={showInText}>
            Show in text
          </button>
        ) : null}
        {thread.resolved ? (
          <button
            type="button"
            disabled={busy}
            onClick={() =>
              void act(
                async () => data(await client.POST("/wiki/v1/comments/{commentId}/reopen", { params: { path: { commentId } } })),
                "Comment reopened",
                "Could not reopen the comment"
              )
            }
          >
            Reopen
          </button>
        ) : (
          <button
            type="button"
            disabled={busy}
            onClick={() =>
              void act(
                async () => data(await client.POST("/wiki/v1/comments/{commentId}/resolve", { params: { path: { commentId } } })),
                "Comment resolved",
                "Could not resolve the comment"
              )
            }
          >
            Resolve
          </button>
        )}
      </div>
      <form className="reply-form" onSubmit={sendReply}>
        <MentionField label={`Reply to ${author}`} rows={2} value={reply} onChange={setReply} members={members} maxLength={10000} />
        <button type="submit" disabled={busy || reply.trim() === ""}>
          Reply
        </button>
      </form>
      <p className="error" role="alert">
        {error}
      </p>
    </li>
  )
}

/** One comment's text with who wrote it and when; its author edits it in place, its author or a space admin deletes it. */
const CommentBody = ({
  comment,
  members,
  rights,
  onChanged
}: {
  readonly comment: Comment
  readonly members: ReadonlyArray<Mentionable>
  readonly rights: Rights
  readonly onChanged: () => Promise<unknown>
}) => {
  const [draft, setDraft] = useState<string>()
  const [confirming, setConfirming] = useState(false)
  const [error, setError] = useState("")
  const [busy, setBusy] = useState(false)
  const commentId = comment.id
  if (comment.deleted)
    return (
      <p className="comment-head muted">
        <em>Comment deleted</em>
      </p>
    )
  const own = comment.author.userId === rights.userId
  const canDelete = own || rights.isSpaceAdmin
  const what = comment.parentId === null ? "comment" : "reply"

  const act = async (work: () => Promise<unknown>, said: string, fallback: string) => {
    setError("")
    setBusy(true)
    try {
      await work()
      announce(said)
      await onChanged()
    } catch (cause) {
      setError(messageOf(cause, fallback))
    } finally {
      setBusy(false)
    }
  }

  const save = (event: FormEvent) => {
    event.preventDefault()
    if (draft === undefined || draft.trim() === "") return
    void act(
      async () => {
        data(await client.PATCH("/wiki/v1/comments/{commentId}", { params: { path: { commentId } }, body: { body: draft } }))
        setDraft(undefined)
      },
      `Your ${what} was changed`,
      `Could not change the ${what}`
    )
  }

  const remove = () =>
    act(
      async () => data(await client.DELETE("/wiki/v1/comments/{commentId}", { params: { path: { commentId } } })),
      `The ${what} was deleted`,
      `Could not delete the ${what}`
    )

  return (
    <div className="comment-body">
      {draft === undefined ? (
        <p className="comment-head">
          <strong>{comment.author.name}</strong>: <span className="pre-wrap">{comment.body}</span>{" "}
          <span className="muted small">
            {when(comment.createdAt)}
            {comment.editedAt !== null ? " · edited" : ""}
          </span>
        </p>
      ) : (
        <form className="edit-comment" onSubmit={save}>
          <MentionField label={`Edit your ${what}`} rows={2} value={draft} onChange={setDraft} members={members} maxLength={10000} />
          <button type="submit" disabled={busy || draft.trim() === ""}>
            Save
          </button>{" "}
          <button type="button" onClick={() => setDraft(undefined)}>
            Cancel
          </button>
        </form>
      )}
      {draft === undefined && (own || canDelete) ? (
        <div className="comment-actions">
          {own ? (
            <button type="button" className="link" onClick={() => setDraft(comment.body)}>
              Edit <span className="visually-hidden">{`your ${what}`}</span>
            </button>
          ) : null}
          {canDelete && !confirming ? (
            <button type="button" className="link" onClick={() => setConfirming(true)}>
              Delete <span className="visually-hidden">{`${comment.author.name}'s ${what}`}</span>
            </button>
          ) : null}
          {confirming ? (
            <>
              <button type="button" className="danger" disabled={busy} onClick={() => void remove()}>
                {`Delete this ${what}`}
              </button>
              <button type="button" onClick={() => setConfirming(false)}>
                Keep it
              </button>
            </>
          ) : null}
        </div>
      ) : null}
      {error !== "" ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  )
}
