/**
 * The team's hand on a release: a milestone's changelog entry drafted from
 * the work linked to its requests (optionally adding the board's completed
 * requests no milestone holds yet), and a draft entry's title and text edited
 * before it is published.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { client } from "../../api/client.ts"
import { announce } from "../../ui/announce.tsx"
import { ErrorMessage } from "../../ui/Status.tsx"
import { unwrap } from "../common/result.ts"
import { boardKey } from "./queries.ts"

export const DraftFromMilestone = ({
  boardId,
  milestone
}: {
  readonly boardId: string
  readonly milestone: { id: string; name: string }
}) => {
  const queryClient = useQueryClient()
  const [addCompleted, setAddCompleted] = useState(false)
  const draft = useMutation({
    mutationFn: () =>
      unwrap(
        client.POST("/feedback/v1/milestones/{milestoneId}/changelog-draft", {
          params: { path: { milestoneId: milestone.id } },
          body: { addCompletedRequests: addCompleted }
        })
      ),
    onSuccess: (entry) => {
      announce(`Draft "${entry.title}" written: edit it under Changelog, then publish it`)
      void queryClient.invalidateQueries({ queryKey: boardKey(boardId) })
    }
  })
  return (
    <form
      className="inline-form"
      onSubmit={(event) => {
        event.preventDefault()
        draft.mutate()
      }}
    >
      <label className="check">
        <input type="checkbox" checked={addCompleted} onChange={(event) => setAddCompleted(event.currentTarget.checked)} /> First add the
        board's completed requests no milestone holds yet
      </label>
      <button type="submit" disabled={draft.isPending}>
        Draft changelog entry from {milestone.name}
      </button>
      {draft.isError ? <ErrorMessage error={draft.error} /> : null}
    </form>
  )
}

export const EditDraftEntry = ({
  boardId,
  entry
}: {
  readonly boardId: string
  readonly entry: { readonly id: string; readonly title: string; readonly markdown: string }
}) => {
  const queryClient = useQueryClient()
  const [editing, setEditing] = useState<{ title: string; markdown: string } | null>(null)
  const save = useMutation({
    mutationFn: (change: { title: string; markdown: string }) =>
      unwrap(client.PATCH("/feedback/v1/changelog/{changelogEntryId}", { params: { path: { changelogEntryId: entry.id } }, body: change })),
    onSuccess: () => {
      setEditing(null)
      announce("Draft saved")
      void queryClient.invalidateQueries({ queryKey: boardKey(boardId) })
    }
  })
  if (editing === null) {
    return (
      <button type="button" onClick={() => setEditing({ title: entry.title, markdown: entry.markdown })}>
        Edit {entry.title}
      </button>
    )
  }
  return (
    <form
      className="stack"
      aria-label={`Edit draft ${entry.title}`}
      onSubmit={(event) => {
        event.preventDefault()
        save.mutate(editing)
      }}
    >
      <label>
        Title{" "}
        <input
          value={editing.title}
          onChange={(event) => setEditing({ ...editing, title: event.currentTarget.value })}
          required
          maxLength={300}
        />
      </label>
      <label>
        Text (Markdown){" "}
        <textarea rows={8} value={editing.markdown} onChange={(event) => setEditing({ ...editing, markdown: event.currentTarget.value })} />
      </label>
      <div className="row">
        <button type="submit" disabled={save.isPending}>
          Save draft
        </button>
        <button type="button" onClick={() => setEditing(null)}>
          Cancel
        </button>
      </div>
      {save.isError ? <ErrorMessage error={save.error} /> : null}
    </form>
  )
}
