/**
 * Lens, the workspace assistant, beside every workspace page (the shell's
 * "Lens" button opens it): a side panel that streams the answer, cites its sources (each opens the
 * transcript moment, task or page), offers follow-up questions, keeps
 * threads, and shows the writes Lens proposes for the user to confirm or reject.
 */
import { useQueryClient } from "@tanstack/react-query"
import { useEffect, useId, useRef, useState } from "react"
import { Link } from "react-router"
import { client } from "../../api/client.ts"
import { ErrorMessage } from "../../ui/Status.tsx"
import { taskHref } from "../common/links.ts"
import { messageOf } from "../../api/client.ts"
import { unwrap } from "../common/result.ts"
import { CitationAnchor, CitationLink, citationLabel } from "./Citation.tsx"
import { askLens, type LensCitation, type LensStep } from "./stream.ts"
import { ProposalList, proposalsKey, resultString, useProposals } from "./ProposalList.tsx"
import { useThreads } from "./threads.ts"
import "../common/areas.css"

interface Turn {
  readonly key: string
  readonly message: string
  readonly answer: string
  readonly answerId?: string
  readonly citations: ReadonlyArray<LensCitation>
  readonly followUps: ReadonlyArray<string>
  readonly steps: ReadonlyArray<LensStep>
  readonly state: "streaming" | "done" | "failed"
  readonly error?: string
}

/** The answer's text with its `[n]` markers as links to the cited sources. */
const AnswerText = ({ workspaceId, turn, onOpen }: { readonly workspaceId: string; readonly turn: Turn; readonly onOpen: () => void }) => (
  <p className="lens-answer-text">
    {turn.answer.split(/(\[\d+\])/).map((part, index) => {
      const marker = /^\[(\d+)\]$/.exec(part)
      const citation = marker ? turn.citations.find((candidate) => Number(candidate.n) === Number(marker[1])) : undefined
      return citation ? (
        <CitationAnchor
          key={index}
          workspaceId={workspaceId}
          citation={citation}
          onOpen={onOpen}
          label={`Source ${String(citation.n)}: ${citationLabel(citation)}`}
          className="citation-marker"
        >
          {part}
        </CitationAnchor>
      ) : (
        part
      )
    })}
  </p>
)

const Proposals = ({ workspaceId, answerId }: { readonly workspaceId: string; readonly answerId: string }) => {
  const proposals = useProposals(workspaceId)
  const mine = proposals.data?.items.filter((proposal) => proposal.answerId === answerId) ?? []
  if (mine.length === 0) return null
  return (
    <section className="lens-proposals" aria-label="Proposed changes">
      <h4>Lens proposes</h4>
      <ProposalList
        workspaceId={workspaceId}
        proposals={mine}
        written={(proposal) => {
          const taskId = resultString(proposal, ["id"])
          return taskId === undefined ? null : <Link to={taskHref(workspaceId, taskId)}>open task</Link>
        }}
      />
    </section>
  )
}

const stepWords: Record<LensStep["kind"], string> = {
  route: "Choosing sources",
  retrieve: "Searching",
  grade: "Checking what is relevant",
  tool: "Looking things up",
  synthesize: "Writing the answer"
}

const TurnView = ({
  workspaceId,
  turn,
  onFollowUp,
  onOpen
}: {
  readonly workspaceId: string
  readonly turn: Turn
  readonly onFollowUp: (q: string) => void
  readonly onOpen: () => void
}) => {
  const lastStep = turn.steps[turn.steps.length - 1]
  return (
    <li className="lens-turn">
      <p className="lens-question">
        <span className="visually-hidden">You asked: </span>
        {turn.message}
      </p>
      <div className="lens-answer" aria-busy={turn.state === "streaming"}>
        {turn.state === "streaming" && turn.answer === "" ? (
          <p className="muted">{lastStep ? `${stepWords[lastStep.kind]}…` : "Thinking…"}</p>
        ) : null}
        {turn.answer !== "" ? <AnswerText workspaceId={workspaceId} turn={turn} onOpen={onOpen} /> : null}
        {turn.state === "failed" ? <p role="alert">{turn.error}</p> : null}
      </div>
      {turn.citations.length > 0 ? (
        <section aria-label="Sources" className="lens-sources">
          <h4>Sources</h4>
          {turn.citations.map((citation) => (
            <CitationLink key={String(citation.n)} workspaceId={workspaceId} citation={citation} onOpen={onOpen} />
          ))}
        </section>
      ) : null}
      {turn.answerId ? <Proposals workspaceId={workspaceId} answerId={turn.answerId} /> : null}
      {turn.state === "done" && turn.followUps.length > 0 ? (
        <section aria-label="Follow-up questions" className="lens-followups">
          {turn.followUps.map((question) => (
            <button key={question} type="button" className="chip" onClick={() => onFollowUp(question)}>
              {question}
            </button>
          ))}
        </section>
      ) : null}
    </li>
  )
}

export const LensPanel = ({ workspaceId, onClose }: { readonly workspaceId: string; readonly onClose: () => void }) => {
  const queryClient = useQueryClient()
  const { threads, remember } = useThreads(workspaceId)
  const [threadId, setThreadId] = useState<string | undefined>(undefined)
  const [turns, setTurns] = useState<ReadonlyArray<Turn>>([])
  const [question, setQuestion] = useState("")
  const [loadError, setLoadError] = useState<unknown>(undefined)
  const running = useRef<AbortController | undefined>(undefined)
  const input = useRef<HTMLTextAreaElement>(null)
  const ids = useId()
  useEffect(() => {
    input.current?.focus()
    return () => running.current?.abort()
  }, [])
  const update = (key: string, change: (turn: Turn) => Turn) =>
    setTurns((current) => current.map((turn) => (turn.key === key ? change(turn) : turn)))
  const ask = async (message: string) => {
    const text = message.trim()
    if (text === "" || running.current) return
    const key = `${Date.now()}-${Math.random()}`
    setQuestion("")
    setTurns((current) => [...current, { key, message: text, answer: "", citations: [], followUps: [], steps: [], state: "streaming" }])
    const controller = new AbortController()
    running.current = controller
    try {
      const reply = await askLens(
        { message: text, workspaceId, ...(threadId ? { threadId } : {}) },
        {
          step: (step) => update(key, (turn) => ({ ...turn, steps: [...turn.steps, step] })),
          citation: (citation) => update(key, (turn) => ({ ...turn, citations: [...turn.citations, citation] })),
          delta: (delta) => update(key, (turn) => ({ ...turn, answer: turn.answer + delta }))
        },
        controller.signal
      )
      update(key, (turn) => ({
        ...turn,
        answer: reply.answer,
        answerId: reply.answerId,
        citations: reply.citations,
        followUps: reply.followUps,
        state: "done"
      }))
      setThreadId(reply.threadId)
      remember({ id: reply.threadId, title: threadId ? (threads.find((thread) => thread.id === threadId)?.title ?? text) : text })
      if (reply.proposals.length > 0) void queryClient.invalidateQueries({ queryKey: proposalsKey(workspaceId) })
    } catch (error) {
      if (!controller.signal.aborted) update(key, (turn) => ({ ...turn, state: "failed", error: messageOf(error) }))
    } finally {
      running.current = undefined
    }
  }
  const openThread = async (id: string) => {
    running.current?.abort()
    setLoadError(undefined)
    if (id === "") {
      setThreadId(undefined)
      setTurns([])
      return
    }
    try {
      const thread = await unwrap(client.GET("/hub/v1/lens/threads/{threadId}", { params: { path: { threadId: id } } }))
      setThreadId(thread.id)
      setTurns(
        thread.turns.map((turn) => ({
          key: turn.answerId,
          message: turn.message,
          answer: turn.answer,
          answerId: turn.answerId,
          citations: turn.citations,
          followUps: turn.followUps,
          steps: turn.trace.steps,
          state: "done"
        }))
      )
    } catch (error) {
      setLoadError(error)
    }
  }
  const closeOnNarrow = () => {
    if (window.matchMedia("(max-width: 760px)").matches) onClose()
  }
  return (
    <aside
      id="lens-panel"
      className="lens-panel"
      aria-labelledby={`${ids}-title`}
      onKeyDown={(event) => (event.key === "Escape" ? onClose() : undefined)}
    >
      <header className="lens-header">
        <h2 id={`${ids}-title`}>Lens</h2>
        <label className="visually-hidden" htmlFor={`${ids}-thread`}>
          Thread
        </label>
        <select id={`${ids}-thread`} value={threadId ?? ""} onChange={(event) => void openThread(event.currentTarget.value)}>
          <option value="">New thread</option>
          {threads.map((thread) => (
            <option key={thread.id} value={thread.id}>
              {thread.title.length > 40 ? `${thread.title.slice(0, 39)}…` : thread.title}
            </option>
          ))}
        </select>
        <button type="button" onClick={onClose} aria-label="Close Lens">
          ×
        </button>
      </header>
      {loadError ? <ErrorMessage error={loadError} what="Thread" /> : null}
      {turns.length === 0 ? (
        <p className="muted lens-empty">Ask about your meetings, tasks and pages. Answers cite their sources.</p>
      ) : null}
      <ol className="lens-turns" aria-live="polite">
        {turns.map((turn) => (
          <TurnView key={turn.key} workspaceId={workspaceId} turn={turn} onFollowUp={(q) => void ask(q)} onOpen={closeOnNarrow} />
        ))}
      </ol>
      <form
        className="lens-ask"
        onSubmit={(event) => {
          event.preventDefault()
          void ask(question)
        }}
      >
        <label htmlFor={`${ids}-question`} className="visually-hidden">
          Ask Lens
        </label>
        <textarea
          id={`${ids}-question`}
          ref={input}
          rows={2}
          value={question}
          maxLength={4000}
          placeholder="What did we decide about…?"
          onChange={(event) => setQuestion(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter" && !event.shiftKey) {
              event.preventDefault()
              void ask(question)
            }
          }}
        />
        <button type="submit" disabled={question.trim() === ""}>
          Ask
        </button>
      </form>
    </aside>
  )
}
