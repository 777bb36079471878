/** A board's bug reports: report one; the team sets each one's severity and status level. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { useParams } from "react-router"
import { client } from "../../api/client.ts"
import { NewItemPanel } from "./NewItemPanel.tsx"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"
import { unwrap } from "../common/result.ts"
import { when } from "../common/time.ts"
import { boardKey, usePermissions } from "./queries.ts"

const NewBug = ({
  boardId,
  severities
}: {
  readonly boardId: string
  readonly severities: ReadonlyArray<{ id: string; name: string }>
}) => {
  const queryClient = useQueryClient()
  const [title, setTitle] = useState("")
  const [steps, setSteps] = useState("")
  const [severity, setSeverity] = useState("")
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        client.POST("/feedback/v1/boards/{boardId}/bug-reports", {
          params: { path: { boardId } },
          body: {
            title,
            stepsToReproduce: steps,
            ...(severity ? { severityLevelId: severity } : {}),
            environment: { browser: navigator.userAgent.slice(0, 200) }
          }
        })
      ),
    onSuccess: () => {
      setTitle("")
      setSteps("")
      void queryClient.invalidateQueries({ queryKey: boardKey(boardId) })
    }
  })
  return (
    <NewItemPanel summary="Report a bug" submitLabel="Submit bug" create={create}>
      <label>
        Title <input value={title} onChange={(event) => setTitle(event.currentTarget.value)} required maxLength={300} />
      </label>
      <label>
        Steps to reproduce <textarea rows={3} value={steps} onChange={(event) => setSteps(event.currentTarget.value)} />
      </label>
      <label>
        Severity
        <select value={severity} onChange={(event) => setSeverity(event.currentTarget.value)}>
          <option value="">Not set</option>
          {severities.map((level) => (
            <option key={level.id} value={level.id}>
              {level.name}
            </option>
          ))}
        </select>
      </label>
    </NewItemPanel>
  )
}

export const Bugs = () => {
  const boardId = useParams().boardId!
  const queryClient = useQueryClient()
  const permissions = usePermissions(boardId)
  const bugs = useQuery({
    queryKey: [...boardKey(boardId), "bugs"],
    queryFn: () => unwrap(client.GET("/feedback/v1/boards/{boardId}/bug-reports", { params: { path: { boardId } } }))
  })
  const severities = useQuery({
    queryKey: [...boardKey(boardId), "severities"],
    queryFn: () => unwrap(client.GET("/feedback/v1/boards/{boardId}/severity-levels", { params: { path: { boardId } } }))
  })
  const levels = useQuery({
    queryKey: [...boardKey(boardId), "bug-status-levels"],
    queryFn: () => unwrap(client.GET("/feedback/v1/boards/{boardId}/bug-status-levels", { params: { path: { boardId } } }))
  })
  const change = useMutation({
    mutationFn: ({ bugId, field, value }: { bugId: string; field: "severity" | "status"; value: string }) => {
      const params = { path: { bugReportId: bugId } }
      const id = value === "" ? null : value
      return unwrap(
        field === "severity"
          ? client.PUT("/feedback/v1/bug-reports/{bugReportId}/severity-level", { params, body: { severityLevelId: id } })
          : client.PUT("/feedback/v1/bug-reports/{bugReportId}/bug-status-level", { params, body: { bugStatusLevelId: id } })
      )
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: boardKey(boardId) })
  })
  const team = permissions.data?.team === true
  const nameOf = (items: ReadonlyArray<{ id: string; name: string }> | undefined, id: string | null) =>
    items?.find((item) => item.id === id)?.name ?? "Not set"
  return (
    <section aria-labelledby="bugs-heading">
      <h2 id="bugs-heading">Bug reports</h2>
      {permissions.data?.post ? <NewBug boardId={boardId} severities={severities.data?.items ?? []} /> : null}
      {bugs.isPending ? <Loading what="bug reports" /> : null}
      {bugs.isError ? <ErrorMessage error={bugs.error} what="Bug reports" /> : null}
      {change.isError ? <ErrorMessage error={change.error} /> : null}
      {bugs.data && bugs.data.items.length === 0 ? <p>No bug reports.</p> : null}
      {bugs.data && bugs.data.items.length > 0 ? (
        <div className="table-scroll">
          <table className="table">
            <caption className="visually-hidden">Bug reports</caption>
            <thead>
              <tr>
                <th scope="col">Bug</th>
                <th scope="col">Severity</th>
                <th scope="col">Status</th>
                <th scope="col">Reported</th>
              </tr>
            </thead>
            <tbody>
              {bugs.data.items.map((bug) => (
                <tr key={bug.id}>
                  <td>
                    <span className="muted">{bug.shortId}</span> {bug.title}
                  </td>
                  <td>
                    {team ? (
                      <select
                        aria-label={`Severity of ${bug.shortId}`}
                        value={bug.severityLevelId ?? ""}
                        onChange={(event) => change.mutate({ bugId: bug.id, field: "severity", value: event.currentTarget.value })}
                      >
                        <option value="">Not set</option>
                        {severities.data?.items.map((level) => (
                          <option key={level.id} value={level.id}>
                            {level.name}
                          </option>
                        ))}
                      </select>
                    ) : (
                      nameOf(severities.data?.items, bug.severityLevelId)
                    )}
                  </td>
                  <td>
                    {team ? (
                      <select
                        aria-label={`Status of ${bug.shortId}`}
                        value={bug.bugStatusLevelId ?? ""}
                        onChange={(event) => change.mutate({ bugId: bug.id, field: "status", value: event.currentTarget.value })}
                      >
                        <option value="">Not set</option>
                        {levels.data?.items.map((level) => (
                          <option key={level.id} value={level.id}>
                            {level.name}
                          </option>
                        ))}
                      </select>
                    ) : (
                      nameOf(levels.data?.items, bug.bugStatusLevelId)
                    )}
                  </td>
                  <td>{when(bug.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  )
}
