/**
 * A request's comments as the team's request page and the public portal show
 * them, and the form that adds one: what differs (who may post, the fields a
 * visitor gives, internal notes) comes in as children and props.
 */
import { useMutation } from "@tanstack/react-query"
import { type ReactNode, useState } from "react"
import { ErrorMessage } from "../../ui/Status.tsx"
import { when } from "../common/time.ts"

export interface ShownComment {
  readonly id: string
  readonly author: string
  readonly body: ReactNode
  readonly createdAt: string
  /** Words after the time: "visitor", "internal note", "pending"… */
  readonly notes?: ReadonlyArray<string>
  readonly internal?: boolean
  readonly replies?: ReadonlyArray<ShownComment>
}

const CommentItem = ({ comment }: { readonly comment: ShownComment }) => (
  <li className={comment.internal ? "comment internal" : "comment"}>
    <p className="muted small">
      {comment.author} · {when(comment.createdAt)}
      {(comment.notes ?? []).map((note) => ` · ${note}`).join("")}
    </p>
    <p className="pre-wrap">{comment.body}</p>
    {comment.replies !== undefined && comment.replies.length > 0 ? (
      <ul>
        {comment.replies.map((reply) => (
          <CommentItem key={reply.id} comment={reply} />
        ))}
      </ul>
    ) : null}
  </li>
)

export const CommentList = ({ comments }: { readonly comments: ReadonlyArray<ShownComment> | undefined }) => (
  <>
    {comments !== undefined && comments.length === 0 ? <p className="muted">No comments yet.</p> : null}
    <ul className="comments" aria-label="Comments">
      {comments?.map((comment) => (
        <CommentItem key={comment.id} comment={comment} />
      ))}
    </ul>
  </>
)

/** The comment box with its submit button; `children` are the fields before the button (a name, an internal-note box). */
export const CommentForm = <Sent,>({
  send,
  onSent,
  maxLength,
  children
}: {
  readonly send: (body: string) => Promise<Sent>
  readonly onSent: (sent: Sent) => void
  readonly maxLength: number
  readonly children?: ReactNode
}) => {
  const [body, setBody] = useState("")
  const post = useMutation({
    mutationFn: () => send(body),
    onSuccess: (sent) => {
      setBody("")
      onSent(sent)
    }
  })
  return (
    <form
      className="stack"
      aria-label="Add a comment"
      onSubmit={(event) => {
        event.preventDefault()
        post.mutate()
      }}
    >
      <label>
        Add a comment{" "}
        <textarea rows={3} value={body} onChange={(event) => setBody(event.currentTarget.value)} required maxLength={maxLength} />
      </label>
      {children}
      <button type="submit" disabled={post.isPending || body.trim() === ""}>
        Comment
      </button>
      {post.isError ? <ErrorMessage error={post.error} /> : null}
    </form>
  )
}
