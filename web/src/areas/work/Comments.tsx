/**
 * A task's comments (live: the stream refreshes them) and a form to post one.
 * Typing `@` offers the workspace's members; picking one writes `@their-email`,
 * which the server turns into a mention (the member is notified).
 */
import { useQueryClient } from "@tanstack/react-query"
import { type FormEvent, type KeyboardEvent, useId, useRef, useState } from "react"
import { $api, client, data, messageOf } from "../../api/client.ts"
import { announce } from "../../ui/announce.tsx"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"

interface Member {
  readonly userId: string
  readonly name: string
  readonly email: string
}

/** The `@word` being typed just before the caret, if any. */
const mentionAt = (text: string, caret: number) => /(?:^|\s)@([^\s@]*)$/.exec(text.slice(0, caret))

export const Comments = ({ taskId, members }: { readonly taskId: string; readonly members: ReadonlyArray<Member> }) => {
  const queryClient = useQueryClient()
  const comments = $api.useQuery("get", "/pm/v1/tasks/{taskId}/comments", { params: { path: { taskId } } })
  const [text, setText] = useState("")
  const [error, setError] = useState("")
  const [query, setQuery] = useState<string | undefined>(undefined)
  const [highlight, setHighlight] = useState(0)
  const input = useRef<HTMLTextAreaElement>(null)
  const listId = useId()

  const suggestions =
    query === undefined ? [] : members.filter((m) => `${m.name} ${m.email}`.toLowerCase().includes(query.toLowerCase())).slice(0, 6)

  const track = (value: string, caret: number) => {
    setText(value)
    const match = mentionAt(value, caret)
    setQuery(match?.[1])
    setHighlight(0)
  }

  const pick = (member: Member) => {
    const caret = input.current?.selectionStart ?? text.length
    const before = text.slice(0, caret).replace(/@([^\s@]*)$/, `@${member.email} `)
    const next = before + text.slice(caret)
    setText(next)
    setQuery(undefined)
    requestAnimationFrame(() => {
      input.current?.focus()
      input.current?.setSelectionRange(before.length, before.length)
    })
  }

  const onKey = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (suggestions.length === 0) return
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault()
      setHighlight((highlight + (event.key === "ArrowDown" ? 1 : suggestions.length - 1)) % suggestions.length)
    } else if (event.key === "Enter" || event.key === "Tab") {
      event.preventDefault()
      pick(suggestions[highlight]!)
    } else if (event.key === "Escape") {
      event.preventDefault()
      setQuery(undefined)
    }
  }

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

  const open = suggestions.length > 0
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
        <label className="field">
          <span>Comment</span>
          <textarea
            ref={input}
            name="comment"
            rows={3}
            value={text}
            maxLength={20000}
            role="combobox"
            aria-autocomplete="list"
            aria-expanded={open}
            aria-controls={listId}
            aria-activedescendant={open ? `${listId}-${highlight}` : undefined}
            aria-describedby={`${listId}-help`}
            onChange={(event) => track(event.target.value, event.target.selectionStart)}
            onKeyDown={onKey}
          />
        </label>
        <p id={`${listId}-help`} className="muted small">
          Type @ to mention a member.
        </p>
        <div id={listId} role="listbox" aria-label="Members to mention" className="suggestions" hidden={!open}>
          {suggestions.map((member, index) => (
            // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox's keys (↑ ↓ Enter) pick options
            <div
              key={member.userId}
              id={`${listId}-${index}`}
              role="option"
              tabIndex={-1}
              aria-selected={index === highlight}
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => pick(member)}
            >
              {member.name} <span className="muted">{member.email}</span>
            </div>
          ))}
        </div>
        <button type="submit">Post comment</button>
        <p className="error" role="alert">
          {error}
        </p>
      </form>
    </section>
  )
}
