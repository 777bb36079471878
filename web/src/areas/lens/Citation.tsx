/** Where a Lens citation leads: the transcript at the cited moment, the call, the task, the page or the feature request. */
import { useQuery } from "@tanstack/react-query"
import type { ReactNode } from "react"
import { Link } from "react-router"
import { client } from "../../api/client.ts"
import { callHref, pageHref, requestHref, taskHref } from "../common/links.ts"
import { unwrap } from "../common/result.ts"
import { clock } from "../common/time.ts"
import type { LensCitation } from "./stream.ts"

/** The app URL of a cited source; a page's needs its space, read from the page, and a request's its board. */
const useCitationHref = (workspaceId: string, citation: LensCitation): string | undefined => {
  const isPage = citation.sourceType === "page"
  const page = useQuery({
    queryKey: ["get", "/wiki/v1/pages/{pageId}", { params: { path: { pageId: citation.sourceId } } }],
    queryFn: () => unwrap(client.GET("/wiki/v1/pages/{pageId}", { params: { path: { pageId: citation.sourceId } } })),
    enabled: isPage
  })
  const isRequest = citation.sourceType === "request"
  const path = { featureRequestId: citation.sourceId }
  const request = useQuery({
    queryKey: ["get", "/feedback/v1/feature-requests/{featureRequestId}", { params: { path } }],
    queryFn: () => unwrap(client.GET("/feedback/v1/feature-requests/{featureRequestId}", { params: { path } })),
    enabled: isRequest
  })
  switch (citation.sourceType) {
    case "transcript":
      return callHref(
        workspaceId,
        citation.sourceId,
        Number(citation.span?.startMs ?? 0),
        citation.span?.endMs === undefined ? undefined : Number(citation.span.endMs)
      )
    case "call":
      return callHref(workspaceId, citation.sourceId)
    case "task":
      return taskHref(workspaceId, citation.sourceId)
    case "page":
      return page.data ? pageHref(workspaceId, page.data.spaceId, citation.sourceId) : undefined
    case "request":
      return request.data ? requestHref(workspaceId, request.data.boardId, citation.sourceId) : undefined
    default:
      return undefined
  }
}

const kindNames = {
  transcript: "Meeting",
  call: "Meeting notes",
  task: "Task",
  page: "Page",
  integration: "Chat",
  request: "Feature request"
} as const

/** "Weekly bug triage at 0:10" and the like. */
export const citationLabel = (citation: LensCitation): string =>
  citation.sourceType === "transcript" && citation.span?.startMs !== undefined
    ? `${citation.title} at ${clock(Number(citation.span.startMs))}`
    : `${kindNames[citation.sourceType]}: ${citation.title}`

/** A link to the cited source (plain text while its address is unknown, or for chat messages). */
export const CitationAnchor = ({
  workspaceId,
  citation,
  onOpen,
  label,
  className,
  children
}: {
  readonly workspaceId: string
  readonly citation: LensCitation
  readonly onOpen: () => void
  readonly label?: string
  readonly className?: string
  readonly children: ReactNode
}) => {
  const href = useCitationHref(workspaceId, citation)
  return href ? (
    <Link to={href} onClick={onOpen} aria-label={label} className={className}>
      {children}
    </Link>
  ) : (
    <span className={className}>{children}</span>
  )
}

export const CitationLink = ({
  workspaceId,
  citation,
  onOpen
}: {
  readonly workspaceId: string
  readonly citation: LensCitation
  readonly onOpen: () => void
}) => (
  <div className="citation">
    <span className="citation-n" aria-hidden="true">
      [{String(citation.n)}]
    </span>{" "}
    <CitationAnchor workspaceId={workspaceId} citation={citation} onOpen={onOpen}>
      {citationLabel(citation)}
    </CitationAnchor>
    <p className="muted small citation-snippet">{citation.snippet}</p>
  </div>
)
