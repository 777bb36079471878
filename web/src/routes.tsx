/**
 * The app's URLs. Each area is its own chunk, loaded when first visited
 * (`lazy`); the shell, sign-in and data layer are in the first one.
 *
 *   /sign-in?next=…                 sign in or create an account
 *   /                               my workspaces (the only one opens directly)
 *   /w/:workspaceId                 home: my tasks, notifications
 *   /w/:workspaceId/work/…          project management
 *   /w/:workspaceId/wiki/…          wiki
 *   /w/:workspaceId/meetings/…      meetings (hub)
 *   /w/:workspaceId/feedback/…      feedback boards
 *   /w/:workspaceId/settings/…      settings
 *   /portal/:slug                   a public feedback board, no account needed
 *   /oauth/callback                 where a vendor returns after OAuth consent (settings)
 *   /unsubscribe?token=…            a notification e-mail's "Stop …" link, no session needed
 */
import { createBrowserRouter } from "react-router"
import { RequireSession, SignIn } from "./auth/SignIn.tsx"
import { AppShell } from "./shell/AppShell.tsx"
import { NotFound, RouteError } from "./ui/Status.tsx"
import { WorkspaceList } from "./shell/WorkspaceList.tsx"

export const router = createBrowserRouter([
  { path: "/sign-in", Component: SignIn },
  { path: "/unsubscribe", lazy: () => import("./areas/settings/Unsubscribe.tsx").then((m) => ({ Component: m.Unsubscribe })) },
  { path: "/portal/:slug/*", lazy: () => import("./areas/feedback/routes.tsx").then((m) => ({ Component: m.PublicPortal })) },
  {
    Component: RequireSession,
    ErrorBoundary: RouteError,
    children: [
      { index: true, Component: WorkspaceList },
      { path: "/oauth/callback", lazy: () => import("./areas/settings/OAuthCallback.tsx").then((m) => ({ Component: m.OAuthCallback })) },
      {
        path: "/w/:workspaceId",
        Component: AppShell,
        ErrorBoundary: RouteError,
        children: [
          { index: true, lazy: () => import("./areas/home/Home.tsx").then((m) => ({ Component: m.Home })) },
          { path: "work/*", lazy: () => import("./areas/work/routes.tsx").then((m) => ({ Component: m.WorkArea })) },
          { path: "wiki/*", lazy: () => import("./areas/wiki/routes.tsx").then((m) => ({ Component: m.WikiArea })) },
          { path: "meetings/*", lazy: () => import("./areas/meetings/routes.tsx").then((m) => ({ Component: m.MeetingsArea })) },
          { path: "feedback/*", lazy: () => import("./areas/feedback/routes.tsx").then((m) => ({ Component: m.FeedbackArea })) },
          { path: "settings/*", lazy: () => import("./areas/settings/routes.tsx").then((m) => ({ Component: m.SettingsArea })) },
          { path: "*", Component: NotFound }
        ]
      },
      { path: "*", Component: NotFound }
    ]
  }
])
