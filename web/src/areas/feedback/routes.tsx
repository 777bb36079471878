/**
 * Feedback boards, loaded on demand: the workspace's boards and a team's live
 * view of one (requests, roadmap, bugs, changelog, moderation), and the
 * public portal of a public board (`/portal/:slug`, no account needed).
 */
import { Route, Routes } from "react-router"
import { BoardPage } from "./BoardPage.tsx"
import { Boards } from "./Boards.tsx"
import { Portal } from "./Portal.tsx"
import "../common/areas.css"

export { portalHref as portalPath } from "../common/links.ts"

export const FeedbackArea = () => (
  <Routes>
    <Route index element={<Boards />} />
    <Route path=":boardId/*" element={<BoardPage />} />
  </Routes>
)

export const PublicPortal = Portal
