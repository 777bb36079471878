/**
 * A task's comments (live: the stream refreshes them) and a form to post one.
 * Typing `@` offers the workspace's members; picking one writes `@their-email`,
 * which the server turns into a mention (the member is notified).
 */
import { useQueryClient } from "@tanstack/react-query"
import { type FormEvent, useState } from "react"
import { $api, client, data, messageOf } from "../../api/client.ts"
import { announce } from "../../ui/announce.tsx"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"
import { type Mentionable, MentionField } from "../common/MentionField.tsx"

export const Comments = ({ taskId, members }: { readonly taskId: string; readonly members: ReadonlyArray<Mentionable> }) => {
  const queryClient = useQueryClient()
  const comments = $api.useQuery("get", "/pm/v1/tasks/{taskId}/comments", { params: { path: { taskId } } })
  const [text, setText] = useState("")
  const [error, setError] = useState("")

  const post = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (text.trim() === "") return
    setError("")
    try {
      data(await client.POST("/pm/v1/tasks/{taskId}/comments", { params: { path: { taskId } }, body: { text } }))
      setText("")
      announce("Comment posted")
      await queryClient.invalidateQueries({ queryKey: ["get", "/pm/v1/tasks/{taskId}/comments"] })
    } catch (cause) {
      setError(messageOf(cause))
    }
  }

  return (
    <section aria-labelledby="task-comments-title" className="task-comments">
      <h3 id="task-comments-title">Comments</h3>
      {comments.isPending ? <Loading what="comments" /> : null}
      {comments.error ? <ErrorMessage error={comments.error} /> : null}
      <ol className="plain comments">
        {comments.data?.items.map((comment) => (
          <li key={comment.id}>
            <p className="comment-head">
              <strong>{comment.author.name}</strong> <span className="muted">{new Date(comment.createdAt).toLocaleString()}</span>
            </p>
            <p className="comment-text">{comment.text}</p>
          </li>
        ))}
      </ol>
      {comments.data && comments.data.items.length === 0 ? <p className="muted">No comments yet.</p> : null}
      <form onSubmit={post} className="comment-form">
        <MentionField label="Comment" name="comment" value={text} onChange={setText} members={members} maxLength={20000} />
        <button type="submit">Post comment</button>
        <p className="error" role="alert">
          {error}
        </p>
      </form>
    </section>
  )
}
