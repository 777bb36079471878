-- What a user sees of each of their synced calendars: when a sync was last tried (`attempted_at`; it succeeded when
-- `synced_at` is as recent) and how many of the calendar's events the last read carried (`event_count`).
ALTER TABLE hub_calendar_sync ADD COLUMN attempted_at timestamptz;
ALTER TABLE hub_calendar_sync ADD COLUMN event_count integer;
