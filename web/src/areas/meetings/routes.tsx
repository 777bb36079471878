/** Meetings (hub), loaded on demand: the calls, a call, the calendar with its prompts, personal webhooks. */
import { Route, Routes } from "react-router"
import { Calendar } from "./Calendar.tsx"
import { CallList } from "./CallList.tsx"
import { CallPage } from "./CallPage.tsx"
import { PersonalWebhooks } from "./PersonalWebhooks.tsx"
import "../common/areas.css"

export const MeetingsArea = () => (
  <Routes>
    <Route index element={<CallList />} />
    <Route path="calendar" element={<Calendar />} />
    <Route path="webhooks" element={<PersonalWebhooks />} />
    <Route path=":callId" element={<CallPage />} />
  </Routes>
)
