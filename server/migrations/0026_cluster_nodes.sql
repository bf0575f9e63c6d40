-- Every server records a heartbeat here (server/cluster/nodes.ts): the monitor page lists live nodes, and
-- a node whose heartbeat stops is shown as gone. Each node also publishes its recent warn/error log lines,
-- so the system logs page can show another node's lines without reaching that node over the network.
CREATE TABLE "cluster_nodes" (
  "id" text PRIMARY KEY,
  "host" text NOT NULL,
  "pid" integer NOT NULL,
  "version" text NOT NULL,
  "started_at" timestamptz NOT NULL,
  "last_seen" timestamptz NOT NULL DEFAULT now(),
  "stopped_at" timestamptz,
  "figures" jsonb
);
CREATE TABLE "node_log_lines" (
  "id" bigserial PRIMARY KEY,
  "node_id" text NOT NULL,
  "time" timestamptz,
  "level" text NOT NULL,
  "line" text NOT NULL
);
CREATE INDEX "node_log_lines_node_idx" ON "node_log_lines" ("node_id", "id");
