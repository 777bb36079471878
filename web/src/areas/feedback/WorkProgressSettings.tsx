/**
 * How linked work moves the board's requests, set by its admins: the status a
 * request takes when the first of its pm tasks starts, and the one it takes
 * when all are done ("nothing" leaves that step to people). Moves go forward
 * only and a status set by a person wins; the server says so too.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useEffect, useState } from "react"
import { client } from "../../api/client.ts"
import { announce } from "../../ui/announce.tsx"
import { ErrorMessage } from "../../ui/Status.tsx"
import { unwrap } from "../common/result.ts"
import { boardKey, useStatuses } from "./queries.ts"

interface Declaration {
  readonly startedStatusId: string | null
  readonly doneStatusId: string | null
}

const steps = [
  { key: "startedStatusId", label: "When the first linked task starts, move the request to" },
  { key: "doneStatusId", label: "When all linked tasks are done, move the request to" }
] as const

export const WorkProgressSettings = ({ boardId }: { readonly boardId: string }) => {
  const queryClient = useQueryClient()
  const key = [...boardKey(boardId), "work-progress"]
  const statuses = useStatuses(boardId)
  const declared = useQuery({
    queryKey: key,
    queryFn: () => unwrap(client.GET("/feedback/v1/boards/{boardId}/work-progress", { params: { path: { boardId } } }))
  })
  const [choice, setChoice] = useState<Declaration>({ startedStatusId: null, doneStatusId: null })
  useEffect(() => {
    if (declared.data) setChoice({ startedStatusId: declared.data.startedStatusId, doneStatusId: declared.data.doneStatusId })
  }, [declared.data])
  const save = useMutation({
    mutationFn: (declaration: Declaration) =>
      unwrap(client.PUT("/feedback/v1/boards/{boardId}/work-progress", { params: { path: { boardId } }, body: declaration })),
    onSuccess: (saved) => {
      queryClient.setQueryData(key, saved)
      announce("Saved how linked work moves requests")
    }
  })
  return (
    <details className="panel">
      <summary>How linked work moves requests</summary>
      <form
        className="stack"
        onSubmit={(event) => {
          event.preventDefault()
          save.mutate(choice)
        }}
      >
        {steps.map((step) => (
          <label key={step.key}>
            {step.label}
            <select
              value={choice[step.key] ?? ""}
              onChange={(event) =>
                setChoice({ ...choice, [step.key]: event.currentTarget.value === "" ? null : event.currentTarget.value })
              }
            >
              <option value="">nothing (people move it)</option>
              {statuses.data?.items.map((status) => (
                <option key={status.id} value={status.id}>
                  {status.name}
                </option>
              ))}
            </select>
          </label>
        ))}
        <p className="muted small">Requests only move forward, and a status someone sets by hand wins until a task is linked again.</p>
        <button type="submit" disabled={save.isPending || declared.isPending}>
          Save
        </button>
        {declared.isError ? <ErrorMessage error={declared.error} /> : null}
        {save.isError ? <ErrorMessage error={save.error} /> : null}
      </form>
    </details>
  )
}
