/**
 * The relationship-graph widget of a dashboard: how the scope's tasks are
 * linked (blocks, relates to, duplicates), how many are held back, the
 * longest blocking chain, and the links themselves (each task a link).
 */
import { Link, useParams } from "react-router"
import type { components } from "../../api/generated/pm.ts"
import { taskHref } from "../common/links.ts"

type Graph = components["schemas"]["RelationshipGraph"]

const n = (value: number | string): number => (typeof value === "number" && Number.isFinite(value) ? value : 0)
const VERB = { blocks: "blocks", relates_to: "relates to", duplicates: "duplicates" } as const
const SHOWN = 12

export const RelationshipGraphWidget = ({ graph }: { readonly graph: Graph }) => {
  const { workspaceId = "" } = useParams()
  const { stats } = graph
  const nodes = new Map(graph.nodes.map((node) => [node.id, node]))
  const named = (id: string) => nodes.get(id)
  if (graph.edges.length === 0) return <p className="muted">No related tasks yet.</p>
  const chain = stats.longestBlockingChain.map((id) => named(id)?.name ?? id)
  const taskLink = (id: string) => {
    const node = named(id)
    return node ? (
      <Link to={taskHref(workspaceId, id)}>
        {node.name}
        {node.finished ? " (done)" : ""}
      </Link>
    ) : (
      <span>{id}</span>
    )
  }
  return (
    <div>
      <p>
        {`${n(stats.edges)} ${n(stats.edges) === 1 ? "relationship" : "relationships"} among ${n(stats.nodes)} tasks: ${n(stats.byType.blocks)} blocking, ${n(stats.byType.relates_to)} related, ${n(stats.byType.duplicates)} duplicates; ${n(stats.blockedTasks)} ${n(stats.blockedTasks) === 1 ? "task" : "tasks"} held back.`}
      </p>
      {chain.length > 1 ? <p className="small">{`Longest blocking chain: ${chain.join(" → ")}`}</p> : null}
      <ul className="plain">
        {graph.edges.slice(0, SHOWN).map((edge) => (
          <li key={edge.id}>
            {taskLink(edge.source)} <span className="muted">{VERB[edge.type]}</span> {taskLink(edge.target)}
          </li>
        ))}
      </ul>
      {graph.edges.length > SHOWN ? <p className="muted small">{`and ${graph.edges.length - SHOWN} more`}</p> : null}
    </div>
  )
}
