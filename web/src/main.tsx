/**
 * The Atrium web app: one React tree, one TanStack Query cache (fed by the
 * generated API client and updated in place by the live streams), and real
 * URLs (history API; the server answers index.html for app routes).
 */
import { QueryClientProvider } from "@tanstack/react-query"
import { StrictMode } from "react"
import { createRoot } from "react-dom/client"
import { RouterProvider } from "react-router"
import { queryClient } from "./api/queryClient.ts"
import { router } from "./routes.tsx"
import "./styles.css"

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>
)
