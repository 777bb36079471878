-- Calendars synced from the suites people use: each workspace connection of kind `calendar` (an iCalendar address,
-- or a Google / Microsoft calendar) syncs into the calendar of the user who made it. `cursor` is the suite's sync
-- token (Google) or delta link (Graph); `etag`/`last_modified` make the next ICS fetch conditional. A sync is a
-- leased job: `claimed_until` keeps two nodes off one calendar, `next_sync_at` is when it runs again.
CREATE TABLE hub_calendar_sync (
  connection_id text PRIMARY KEY,
  etag text,
  last_modified text,
  cursor text,
  window_start timestamptz,
  full_synced_at timestamptz,
  synced_at timestamptz,
  next_sync_at timestamptz NOT NULL DEFAULT now(),
  claimed_until timestamptz,
  last_error text
);
CREATE INDEX hub_calendar_sync_due ON hub_calendar_sync (next_sync_at);

-- The suite's own events of a Google or Microsoft calendar as last listed, by the suite's id: an incremental sync
-- changes some of them, and the calendar's events are rebuilt from all of them.
CREATE TABLE hub_calendar_sync_items (
  connection_id text NOT NULL REFERENCES hub_calendar_sync (connection_id) ON DELETE CASCADE,
  item_id text NOT NULL,
  item jsonb NOT NULL,
  PRIMARY KEY (connection_id, item_id)
);
