-- Notifications people receive by e-mail (issue 24). Every service's in-app notification that may
-- be mailed gets one row here, written in the transaction that created the notification; the
-- sender (actors/notifications/Sender.ts) mails it at most once: an instant one when due, the
-- daily and weekly ones grouped into one digest per user at their local morning.
CREATE TABLE notification_outbox (
  id text PRIMARY KEY,                   -- '<area>:<the in-app notification id>': one row per notification
  user_id text NOT NULL,
  workspace_id text NOT NULL,
  area text NOT NULL,                    -- pm | wiki | feedback | hub
  kind text NOT NULL,                    -- actors/notifications/Kinds.ts
  mode text NOT NULL,                    -- instant | daily | weekly, as the user chose when it was written
  title text NOT NULL,
  item_type text NOT NULL,               -- what permission is checked on at send time: task | list | space | workspace | request | board
  item_id text NOT NULL,
  container_id text,                     -- the request's board
  link text NOT NULL,                    -- path in the web app
  created_at timestamptz NOT NULL DEFAULT now(),
  due_at timestamptz,                    -- null: a digest row not yet given its morning
  state text NOT NULL DEFAULT 'pending', -- pending | mailed | read | no_access | off | no_address
  lease_owner text,
  lease_until timestamptz,
  mail_id uuid,                          -- the hub_mail_outbox row that carried it
  settled_at timestamptz
);
CREATE INDEX notification_outbox_due ON notification_outbox (due_at) WHERE state = 'pending';
CREATE INDEX notification_outbox_unscheduled ON notification_outbox (user_id) WHERE state = 'pending' AND due_at IS NULL;
CREATE INDEX notification_outbox_user ON notification_outbox (user_id, created_at);

-- Per user and kind: how they want it by e-mail. No row: the kind's default.
CREATE TABLE notification_delivery_preferences (
  user_id text NOT NULL,
  kind text NOT NULL,
  mode text NOT NULL CHECK (mode IN ('instant', 'daily', 'weekly', 'off')),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, kind)
);

