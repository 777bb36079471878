/** Space → folder → list navigation of the workspace, each space's sprints (pm's hierarchy read; live through the cache). */
import { NavLink, useParams } from "react-router"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"
import { useHierarchy } from "./queries.ts"

type ListLink = NonNullable<ReturnType<typeof useHierarchy>["data"]>["spaces"][number]["lists"][number]

const Lists = ({ lists, workspaceId }: { readonly lists: ReadonlyArray<ListLink>; readonly workspaceId: string }) => (
  <ul>
    {lists
      .filter((list) => !list.archived)
      .map((list) => (
        <li key={list.id}>
          <NavLink to={`/w/${workspaceId}/work/lists/${list.id}`}>
            {list.name} <span className="count">{list.unfinishedTasks}</span>
          </NavLink>
        </li>
      ))}
  </ul>
)

export const Hierarchy = () => {
  const { workspaceId = "" } = useParams()
  const hierarchy = useHierarchy(workspaceId)
  if (hierarchy.isPending) return <Loading what="spaces" />
  if (hierarchy.error) return <ErrorMessage error={hierarchy.error} what="The spaces could not be loaded" />
  const spaces = hierarchy.data.spaces.filter((space) => !space.archived)
  return (
    <nav className="hierarchy" aria-label="Spaces and lists">
      <ul>
        <li>
          <NavLink to={`/w/${workspaceId}/work/dashboards`}>Dashboards</NavLink>
        </li>
      </ul>
      {spaces.length === 0 ? <p>No spaces yet.</p> : null}
      <ul>
        {spaces.map((space) => (
          <li key={space.id}>
            <span className="space-name">{space.name}</span>
            <ul>
              <li>
                <NavLink to={`/w/${workspaceId}/work/spaces/${space.id}/sprints`} className="sprints-link">
                  Sprints <span className="visually-hidden">of {space.name}</span>
                </NavLink>
              </li>
            </ul>
            <ul>
              {space.folders
                .filter((folder) => !folder.archived)
                .map((folder) => (
                  <li key={folder.id}>
                    <span className="folder-name">{folder.name}</span>
                    <Lists lists={folder.lists} workspaceId={workspaceId} />
                  </li>
                ))}
            </ul>
            <Lists lists={space.lists} workspaceId={workspaceId} />
          </li>
        ))}
      </ul>
    </nav>
  )
}
